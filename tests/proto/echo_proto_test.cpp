// The generated protobuf and gRPC code builds, links and describes the service we expect.
#include <gtest/gtest.h>

#include "proto/echo.grpc.pb.h"
#include "proto/echo.pb.h"

namespace wirebench {
namespace {

TEST(echo_proto, greet_request_round_trips_with_its_id) {
  echo::GreetRequest request;
  request.set_id(0xfffffffffULL);
  request.set_name("ünïcödé");
  const std::string bytes = request.SerializeAsString();
  echo::GreetRequest parsed;
  ASSERT_TRUE(parsed.ParseFromString(bytes));
  EXPECT_EQ(parsed.id(), 0xfffffffffULL);
  EXPECT_EQ(parsed.name(), "ünïcödé");
}

TEST(echo_proto, service_has_every_shape) {
  const auto* service = echo::GreetRequest::descriptor()->file()->FindServiceByName("Echo");
  ASSERT_NE(service, nullptr);
  EXPECT_STREQ(echo::Echo::service_full_name(), "wirebench.echo.Echo");
  struct shape {
    const char* method;
    bool client_streaming;
    bool server_streaming;
  };
  for (const shape& s : {shape{"Get", false, false}, shape{"Expand", false, true},
                         shape{"Collect", true, false}, shape{"Update", true, true},
                         shape{"Greet", false, false}, shape{"GreetStream", true, true},
                         shape{"GreetBatchStream", true, true}}) {
    const auto* m = service->FindMethodByName(s.method);
    ASSERT_NE(m, nullptr) << s.method;
    EXPECT_EQ(m->client_streaming(), s.client_streaming) << s.method;
    EXPECT_EQ(m->server_streaming(), s.server_streaming) << s.method;
  }
}

}  // namespace
}  // namespace wirebench
