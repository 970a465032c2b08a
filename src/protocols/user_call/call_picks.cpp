#include "wirebench/protocols/call_picks.hpp"

#include <csv.h>

#include <charconv>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>

#include "wirebench/protocols/input_file.hpp"

namespace wirebench {
namespace {

[[noreturn]] void refuse(const std::string& why) { throw std::invalid_argument(why); }

// A pick's file as the run first read it: every point and protocol of one run picks from the
// same lines (a file edited mid-run once ended the run at the next point), read once. Start-up
// code, any thread.
std::string read_file(const std::string& token, const std::string& path) {
  static std::mutex mutex;
  static std::map<std::string, std::string> read;  // by path
  const std::lock_guard lock(mutex);
  const auto it = read.find(path);
  if (it != read.end()) return it->second;
  std::string text = read_input_file(path, max_listing_file_bytes, token);
  return read.emplace(path, std::move(text)).first->second;
}

std::vector<std::string> file_lines(const std::string& token, const std::string& path) {
  const std::string text = read_file(token, path);
  std::vector<std::string> lines;
  for (std::size_t from = 0; from < text.size();) {
    std::size_t end = text.find('\n', from);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + from, end - from);
    if (line.ends_with('\r')) line.remove_suffix(1);
    if (!line.empty()) lines.emplace_back(line);
    from = end + 1;
  }
  if (lines.empty()) refuse(token + ": " + path + " has no lines");
  return lines;
}

// A CSV file's rows (the header first), parsed by libcsv: RFC 4180's quoting, embedded commas
// and line breaks, CRLF or LF; a malformed quote is refused (CSV_STRICT).
std::vector<std::vector<std::string>> csv_rows(const std::string& token, const std::string& path) {
  const std::string text = read_file(token, path);
  struct collected {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> row;
  } into;
  csv_parser parser;
  if (csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI) != 0)
    refuse(token + ": libcsv could not start");
  // Both run inside csv_parse()/csv_fini(), on this thread: a field, then the end of its row.
  auto field = [](void* bytes, std::size_t size, void* data) {
    auto& row = static_cast<collected*>(data)->row;
    if (bytes) row.emplace_back(static_cast<const char*>(bytes), size);
    else row.emplace_back();
  };
  auto row_end = [](int, void* data) {
    auto* c = static_cast<collected*>(data);
    c->rows.push_back(std::move(c->row));
    c->row.clear();
  };
  const bool parsed = csv_parse(&parser, text.data(), text.size(), field, row_end, &into) == text.size() &&
                      csv_fini(&parser, field, row_end, &into) == 0;
  const std::string why = parsed ? "" : csv_strerror(csv_error(&parser));
  csv_free(&parser);
  if (!parsed) refuse(token + ": " + path + " is not CSV (" + why + ")");
  if (into.rows.size() < 2) refuse(token + ": " + path + " has no rows under its header");
  return std::move(into.rows);
}

// One source of values for a request: an inline list, a file's lines, or a CSV file (whose
// tokens each name their column). A file's tokens in one request share its source: one line or
// row per variant.
struct source {
  std::vector<std::string> values;                // a list or a file's lines
  std::vector<std::vector<std::string>> rows;     // a CSV file's, header first
  std::size_t size() const { return rows.empty() ? values.size() : rows.size() - 1; }
};

// Where a token is in a field: its bytes, its source, and (CSV) its column.
struct token_at {
  std::size_t at, length, source, column;
};

std::string json_escaped(std::string_view value) {
  std::string out;
  for (const char c : value) {
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (static_cast<unsigned char>(c) < 0x20) {
      static constexpr char hex[] = "0123456789abcdef";
      out.append("\\u00").push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    } else {
      out.push_back(c);
    }
  }
  return out;
}

class request_picks {
 public:
  request_picks(const user_call& call, std::string where) : call_(call), where_(std::move(where)) {
    fields_ = fields_of(call_);
    for (const request_field& f : fields_) tokens_.push_back(find_tokens(*f.text));
  }
  request_picks(const request_picks&) = delete;  // fields_ point into call_
  request_picks& operator=(const request_picks&) = delete;

  // The number of variants: the product of the sources' sizes (capped by `room`).
  std::size_t variants(std::size_t room) const {
    std::size_t n = 1;
    for (const source& s : sources_) {
      if (s.size() > room / n)
        refuse(where_ + ": its picks make more than " + std::to_string(room) +
               " variants of it (max " + std::to_string(max_pick_variants) +
               " for all requests: each connection encodes every variant once)");
      n *= s.size();
    }
    return n;
  }

  // Variant `k`: source i takes value (k / (the sizes before i)) % size_i.
  user_call variant(std::size_t k) const {
    std::vector<std::size_t> choice;
    for (const source& s : sources_) {
      choice.push_back(k % s.size());
      k /= s.size();
    }
    user_call out = call_;
    std::vector<request_field> fields = fields_of(out);
    for (std::size_t f = 0; f < fields.size(); ++f) {
      if (tokens_[f].empty()) continue;
      const std::string& was = *fields_[f].text;
      std::string text;
      std::size_t from = 0;
      for (const token_at& t : tokens_[f]) {
        const source& s = sources_[t.source];
        const std::string& value =
            s.rows.empty() ? s.values[choice[t.source]] : s.rows[choice[t.source] + 1][t.column];
        check_value(fields[f].kind, was.substr(t.at, t.length), value);
        text.append(was, from, t.at - from);
        text.append(fields[f].kind == request_field_kind::json ? json_escaped(value) : value);
        from = t.at + t.length;
      }
      *fields[f].text = text.append(was, from);
    }
    return out;
  }

 private:
  std::vector<token_at> find_tokens(const std::string& text) {
    std::vector<token_at> found;
    for (std::size_t at = text.find("__"); at != std::string::npos; at = text.find("__", at + 1)) {
      const bool pick = text.compare(at, 7, "__pick(") == 0;
      const bool csv = text.compare(at, 6, "__csv(") == 0;
      if (!pick && !csv) continue;
      const std::size_t open = at + (pick ? 7 : 6);
      const std::size_t close = text.find(")__", open);
      if (close == std::string::npos)
        refuse(where_ + ": '" + text.substr(at, 40) + "': a pick ends in )__");
      const std::string token = text.substr(at, close + 3 - at);
      const std::string inside = text.substr(open, close - open);
      found.push_back({at, close + 3 - at, 0, 0});
      if (pick && inside.starts_with('@')) {
        found.back().source = file_source("lines:" + inside.substr(1), [&] {
          return source{file_lines(where_ + ": " + token, inside.substr(1)), {}};
        });
      } else if (pick) {
        if (inside.empty()) refuse(where_ + ": '" + token + "': an empty list");
        source s;
        for (std::size_t from = 0;;) {
          const std::size_t bar = inside.find('|', from);
          s.values.push_back(inside.substr(from, bar - from));
          if (bar == std::string::npos) break;
          from = bar + 1;
        }
        sources_.push_back(std::move(s));  // each inline list its own
        found.back().source = sources_.size() - 1;
      } else {
        const std::size_t colon = inside.rfind(':');
        if (colon == std::string::npos || colon == 0 || colon + 1 == inside.size())
          refuse(where_ + ": '" + token + "': give __csv(FILE:COLUMN)__");
        const std::string path = inside.substr(0, colon), column = inside.substr(colon + 1);
        found.back().source = file_source("csv:" + path, [&] {
          return source{{}, csv_rows(where_ + ": " + token, path)};
        });
        found.back().column = column_of(token, path, sources_[found.back().source], column);
      }
      at = close + 2;
    }
    return found;
  }

  template <typename Load>
  std::size_t file_source(const std::string& key, Load load) {
    const auto [it, added] = files_.try_emplace(key, sources_.size());
    if (added) sources_.push_back(load());
    return it->second;
  }

  std::size_t column_of(const std::string& token, const std::string& path, const source& s,
                        const std::string& column) const {
    const std::vector<std::string>& header = s.rows.front();
    std::size_t index = header.size();
    for (std::size_t i = 0; i < header.size() && index == header.size(); ++i)
      if (header[i] == column) index = i;
    if (index == header.size()) {
      std::size_t number = 0;
      const auto [end, ec] = std::from_chars(column.data(), column.data() + column.size(), number);
      if (ec != std::errc{} || end != column.data() + column.size() || number == 0 || number > header.size())
        refuse(where_ + ": '" + token + "': " + path + " has no column '" + column + "' (its header has " +
               std::to_string(header.size()) + ")");
      index = number - 1;
    }
    for (std::size_t r = 1; r < s.rows.size(); ++r)
      if (s.rows[r].size() <= index)
        refuse(where_ + ": '" + token + "': " + path + "'s row " + std::to_string(r + 1) + " has " +
               std::to_string(s.rows[r].size()) + " fields, no column " + std::to_string(index + 1));
    return index;
  }

  void check_value(request_field_kind kind, const std::string& token, const std::string& value) const {
    auto bad = [&](auto is_bad) {
      for (const char c : value)
        if (is_bad(static_cast<unsigned char>(c))) return true;
      return false;
    };
    if (kind == request_field_kind::url_target && bad([](unsigned char c) { return c <= ' ' || c == 0x7f; }))
      refuse(where_ + ": '" + token + "': the value '" + value +
             "' has a space or control character, which a path must %-escape");
    if (kind == request_field_kind::header_value && bad([](unsigned char c) { return c == '\r' || c == '\n' || c == 0; }))
      refuse(where_ + ": '" + token + "': the value '" + value + "' has a line break, which a header cannot carry");
  }

  user_call call_;  // its fields_ point into it
  std::string where_;
  std::vector<request_field> fields_;
  std::vector<std::vector<token_at>> tokens_;  // per field, in order
  std::vector<source> sources_;
  std::map<std::string, std::size_t> files_;  // a file's source, by kind and path
};

}  // namespace

picked_calls expand_picks(const std::vector<user_call>& calls) {
  picked_calls out;
  out.first.push_back(0);
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const request_picks picks(calls[i], "request " + std::to_string(i + 1) + " (" + label(calls[i]) + ")");
    const std::size_t room = max_pick_variants - std::min(max_pick_variants - 1, out.variants.size());
    const std::size_t n = picks.variants(room);
    for (std::size_t k = 0; k < n; ++k) out.variants.push_back(picks.variant(k));
    out.first.push_back(out.variants.size());
  }
  return out;
}

}  // namespace wirebench
