#pragma once
// A folder of a test's own under the system's temporary directory (named by a tag and the pid, so
// that parallel tests do not meet), removed with everything in it when the test ends.
#include <filesystem>
#include <string>

#include <unistd.h>

namespace wirebench::test {

class temp_dir {
 public:
  explicit temp_dir(const std::string& tag)
      : dir_(std::filesystem::temp_directory_path() /
             ("wirebench-" + tag + "-" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(dir_);
  }
  ~temp_dir() { std::filesystem::remove_all(dir_); }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string str() const { return dir_.string(); }

 private:
  std::filesystem::path dir_;
};

}  // namespace wirebench::test
