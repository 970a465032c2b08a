// A main() for the fuzz targets when libFuzzer is not available (g++) or for a quick run in ctest:
// feeds LLVMFuzzerTestOneInput a fixed-seed series of pseudo-random inputs of 0..max_len bytes,
// then every file named on the command line (a directory means each regular file in it, so a
// libFuzzer corpus or crash file can be replayed).
//
//   driver [-runs=N] [-seed=S] [-max_len=L] [FILE_OR_DIR...]
//
// Half of the random inputs are uniform bytes; the others draw from a small palette of byte values
// (always including 0x00, 0x01, '\n', '\r' and 0xff) so that delimiters and small big-endian
// lengths turn up often enough to reach the interesting paths. A target reports a bug by aborting.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

bool flag(std::string_view arg, std::string_view name, unsigned long long& value) {
  if (arg.substr(0, name.size()) != name) return false;
  value = std::strtoull(std::string(arg.substr(name.size())).c_str(), nullptr, 10);
  return true;
}

void run_one(const std::vector<std::uint8_t>& input) {
  // A copy of exactly the right size, so that ASan sees reads past the end.
  std::unique_ptr<std::uint8_t[]> copy(new std::uint8_t[input.size() ? input.size() : 1]);
  std::copy(input.begin(), input.end(), copy.get());
  LLVMFuzzerTestOneInput(copy.get(), input.size());
}

bool run_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    return false;
  }
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::fprintf(stderr, "running %s (%zu bytes)\n", path.c_str(), bytes.size());
  run_one(bytes);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  unsigned long long runs = 20000, seed = 1, max_len = 4096;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (flag(arg, "-runs=", runs) || flag(arg, "-seed=", seed) || flag(arg, "-max_len=", max_len)) continue;
    if (arg == "-h" || arg == "--help") {
      std::printf("usage: %s [-runs=N] [-seed=S] [-max_len=L] [FILE_OR_DIR...]\n", argv[0]);
      return 0;
    }
    if (!arg.empty() && arg[0] == '-') {
      std::fprintf(stderr, "unknown option %s\n", argv[i]);
      return 2;
    }
    paths.emplace_back(arg);
  }

  std::mt19937_64 rng(seed);
  std::vector<std::uint8_t> input;
  for (unsigned long long run = 0; run < runs; ++run) {
    input.resize(std::uniform_int_distribution<std::size_t>(0, max_len)(rng));
    if (rng() % 2 == 0) {
      for (auto& b : input) b = static_cast<std::uint8_t>(rng());
    } else {
      std::vector<std::uint8_t> palette = {0x00, 0x01, '\n', '\r', 0xff};
      const int extra = static_cast<int>(rng() % 6);
      for (int i = 0; i < extra; ++i) palette.push_back(static_cast<std::uint8_t>(rng()));
      for (auto& b : input) b = palette[rng() % palette.size()];
      // The configuration bytes at the front stay uniform.
      for (std::size_t i = 0; i < std::min<std::size_t>(4, input.size()); ++i)
        input[i] = static_cast<std::uint8_t>(rng());
    }
    run_one(input);
  }
  std::fprintf(stderr, "%llu random inputs (seed %llu, up to %llu bytes): ok\n", runs, seed, max_len);

  int files = 0;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (std::filesystem::is_directory(p, ec)) {
      for (const auto& entry : std::filesystem::directory_iterator(p))
        if (entry.is_regular_file()) files += run_file(entry.path()) ? 1 : 0;
    } else if (!run_file(p)) {
      return 2;
    } else {
      ++files;
    }
  }
  if (!paths.empty()) std::fprintf(stderr, "%d files: ok\n", files);
  return 0;
}
