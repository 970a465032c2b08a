#pragma once
// nginx as a test's peer: started in a folder of its own, on two free loopback ports that serve
// the same `locations` (nginx.conf text inside a server block), one HTTP/1.1 and one h2c (HTTP/2
// with prior knowledge), and with certificate files a third that speaks TLS; `http_settings` go
// in the http block. Stopped when the object goes.
// The test checks that nginx is installed first (WIREBENCH_REQUIRE_PEER).
// A free port can be taken between our look and nginx's bind (tests run in parallel, and every
// outgoing connection takes an ephemeral port): nginx then exits, and is started again on new ports.
#include <fstream>
#include <memory>
#include <string>

#include "support/child_process.hpp"
#include "support/temp_dir.hpp"

namespace wirebench::test {

// A certificate and key (PEM files) for a third port, TLS with ALPN h2 and http/1.1.
struct nginx_tls_files {
  std::string certificate;
  std::string key;
};

class nginx_server {
 public:
  nginx_server(const std::string& tag, const std::string& locations,
               const std::string& http_settings = "", nginx_tls_files tls = {})
      : dir_(tag) {
    for (int attempt = 0; attempt < 5 && !started_; ++attempt) {
      nginx_.reset();
      port_ = free_loopback_port();
      do h2c_port_ = free_loopback_port();
      while (h2c_port_ == port_);
      tls_port_ = 0;
      if (!tls.certificate.empty()) {
        do tls_port_ = free_loopback_port();
        while (tls_port_ == port_ || tls_port_ == h2c_port_);
      }
      write_config(locations, http_settings, tls);
      nginx_ = std::make_unique<child_process>(std::vector<std::string>{
          "nginx", "-c", dir_.path("nginx.conf"), "-p", dir_.str(), "-e", dir_.path("error.log")});
      started_ = wait_until_listening();
    }
  }
  // True once every port accepts connections; false if five attempts did not get there.
  bool started() const { return started_; }
  int port() const { return port_; }          // HTTP/1.1
  int h2c_port() const { return h2c_port_; }  // HTTP/2, cleartext
  int tls_port() const { return tls_port_; }  // TLS (0 without nginx_tls_files)
  const temp_dir& dir() const { return dir_; }

 private:
  void write_config(const std::string& locations, const std::string& http_settings,
                    const nginx_tls_files& tls) const {
    std::ofstream conf(dir_.path("nginx.conf"));
    conf << "worker_processes 1;\ndaemon off;\npid " << dir_.path("nginx.pid")
         << ";\nerror_log " << dir_.path("error.log") << ";\nevents { worker_connections 256; }\n"
         << "http {\n  access_log off;\n" << http_settings
         << "  client_body_temp_path " << dir_.path("body") << ";\n"
         << "  server {\n    listen 127.0.0.1:" << port_ << ";\n" << locations << "  }\n"
         << "  server {\n    listen 127.0.0.1:" << h2c_port_ << " http2;\n" << locations << "  }\n";
    if (tls_port_ != 0)
      conf << "  server {\n    listen 127.0.0.1:" << tls_port_ << " ssl http2;\n"
           << "    ssl_certificate " << tls.certificate << ";\n    ssl_certificate_key " << tls.key
           << ";\n" << locations << "  }\n";
    conf << "}\n";
  }
  // Until each port accepts, or nginx exits (a port it could not bind), for at most 10 s.
  bool wait_until_listening() {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < until) {
      if (accepts_connections(port_) && accepts_connections(h2c_port_) &&
          (tls_port_ == 0 || accepts_connections(tls_port_)))
        return true;
      if (nginx_->exited()) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }

  temp_dir dir_;
  int port_ = 0;
  int h2c_port_ = 0;
  int tls_port_ = 0;
  bool started_ = false;
  std::unique_ptr<child_process> nginx_;  // last: stopped before its folder is removed
};

}  // namespace wirebench::test
