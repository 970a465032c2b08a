#include "http_date.hpp"

namespace wirebench::http {
namespace {

void two_digits(char* at, int v) {
  at[0] = static_cast<char>('0' + v / 10);
  at[1] = static_cast<char>('0' + v % 10);
}

}  // namespace

// By hand, not strftime: %a and %b follow the locale, and the header must be English.
void format_http_date(std::time_t t, char (&out)[http_date_size]) {
  static constexpr char days[] = "SunMonTueWedThuFriSat";
  static constexpr char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
  std::tm tm{};
  gmtime_r(&t, &tm);
  char* p = out;
  for (int i = 0; i < 3; ++i) *p++ = days[tm.tm_wday * 3 + i];
  *p++ = ',';
  *p++ = ' ';
  two_digits(p, tm.tm_mday);
  p += 2;
  *p++ = ' ';
  for (int i = 0; i < 3; ++i) *p++ = months[tm.tm_mon * 3 + i];
  *p++ = ' ';
  const int year = tm.tm_year + 1900;  // four digits until 9999
  two_digits(p, year / 100);
  two_digits(p + 2, year % 100);
  p += 4;
  *p++ = ' ';
  two_digits(p, tm.tm_hour);
  p[2] = ':';
  two_digits(p + 3, tm.tm_min);
  p[5] = ':';
  two_digits(p + 6, tm.tm_sec);
  p += 8;
  *p++ = ' ';
  *p++ = 'G';
  *p++ = 'M';
  *p = 'T';
}

std::string_view http_date() {
  thread_local std::time_t formatted_at = -1;
  thread_local char text[http_date_size];
  const std::time_t now = std::time(nullptr);  // vDSO: no system call
  if (now != formatted_at) {
    format_http_date(now, text);
    formatted_at = now;
  }
  return {text, http_date_size};
}

}  // namespace wirebench::http
