// Our gRPC server's reflection service (grpc_reflection.hpp) alone: each kind of request and the
// exact response, the files it shows (Echo's, and reflection's own under grpc's names, valid enough
// to build a descriptor pool from) and the ones it does not (the rest of the process).
#include <algorithm>
#include <string>

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <gtest/gtest.h>

#include "../../src/protocols/grpc/grpc_client_codec.hpp"
#include "../../src/protocols/grpc/grpc_reflection.hpp"
#include "support/h2_frames.hpp"
#include "wirebench/codec/bytes.hpp"
#include "proto/echo.pb.h"
#include "proto/reflection.pb.h"

namespace wirebench::grpc_wire {
namespace {

namespace gp = ::google::protobuf;
namespace rpb = ::wirebench::reflection;

rpb::ServerReflectionResponse ask(reflection_service& service, const rpb::ServerReflectionRequest& r) {
  std::string bytes;
  EXPECT_TRUE(service.answer(r.SerializeAsString(), bytes));
  rpb::ServerReflectionResponse response;
  EXPECT_TRUE(response.ParseFromString(bytes));
  EXPECT_EQ(response.original_request().SerializeAsString(), r.SerializeAsString());
  return response;
}

rpb::ServerReflectionRequest symbol(const std::string& name) {
  rpb::ServerReflectionRequest r;
  r.set_host("localhost");
  r.set_file_containing_symbol(name);
  return r;
}

TEST(grpc_reflection, lists_the_echo_service_and_both_reflection_versions) {
  reflection_service service;
  rpb::ServerReflectionRequest r;
  r.set_host("h");
  r.set_list_services("*");
  const auto response = ask(service, r);
  EXPECT_EQ(response.valid_host(), "h");
  std::vector<std::string> names;
  for (const auto& s : response.list_services_response().service()) names.push_back(s.name());
  EXPECT_EQ(names, (std::vector<std::string>{"grpc.reflection.v1.ServerReflection",
                                             "grpc.reflection.v1alpha.ServerReflection",
                                             "wirebench.echo.Echo"}));
}

TEST(grpc_reflection, a_symbol_of_echo_gives_echo_proto_as_protoc_compiled_it) {
  reflection_service service;
  for (const char* name : {"wirebench.echo.Echo", "wirebench.echo.Echo.GreetStream",
                           "wirebench.echo.GreetReplyBatch"}) {
    const auto response = ask(service, symbol(name));
    ASSERT_EQ(response.file_descriptor_response().file_descriptor_proto_size(), 1) << name;
    gp::FileDescriptorProto expected;
    echo::GreetRequest::descriptor()->file()->CopyTo(&expected);
    EXPECT_EQ(response.file_descriptor_response().file_descriptor_proto(0),
              expected.SerializeAsString()) << name;
  }
  rpb::ServerReflectionRequest by_name;
  by_name.set_file_by_filename(echo::GreetRequest::descriptor()->file()->name());
  EXPECT_EQ(ask(service, by_name).file_descriptor_response().file_descriptor_proto_size(), 1);
}

TEST(grpc_reflection, reflections_own_file_carries_grpcs_names_and_the_bidi_method) {
  reflection_service service;
  for (const std::string version : {"v1", "v1alpha"}) {
    const auto response = ask(service, symbol("grpc.reflection." + version + ".ServerReflection"));
    ASSERT_EQ(response.file_descriptor_response().file_descriptor_proto_size(), 1);
    gp::FileDescriptorProto proto;
    ASSERT_TRUE(proto.ParseFromString(response.file_descriptor_response().file_descriptor_proto(0)));
    EXPECT_EQ(proto.name(), "grpc/reflection/" + version + "/reflection.proto");
    gp::DescriptorPool pool;  // it must stand on its own: every type it names is in it
    const gp::FileDescriptor* file = pool.BuildFile(proto);
    ASSERT_NE(file, nullptr);
    const gp::MethodDescriptor* info =
        pool.FindMethodByName("grpc.reflection." + version + ".ServerReflection.ServerReflectionInfo");
    ASSERT_NE(info, nullptr);
    EXPECT_TRUE(info->client_streaming() && info->server_streaming());
    EXPECT_EQ(info->input_type()->FindFieldByName("list_services")->number(), 7);
    EXPECT_EQ(info->output_type()->FindFieldByName("error_response")->message_type()->full_name(),
              "grpc.reflection." + version + ".ErrorResponse");
  }
}

TEST(grpc_reflection, what_it_does_not_show_is_not_found) {
  reflection_service service;
  // In the process (protobuf's own descriptor.proto is linked), but not a file of our services.
  for (const char* name : {"google.protobuf.FileDescriptorProto", "no.such.Service"}) {
    const auto response = ask(service, symbol(name));
    EXPECT_EQ(response.error_response().error_code(), 5) << name;
    EXPECT_EQ(response.error_response().error_message(), std::string("symbol not found: ") + name);
  }
  rpb::ServerReflectionRequest file;
  file.set_file_by_filename("google/protobuf/descriptor.proto");
  EXPECT_EQ(ask(service, file).error_response().error_code(), 5);
  rpb::ServerReflectionRequest extension;
  extension.mutable_file_containing_extension()->set_containing_type("wirebench.echo.GreetRequest");
  extension.mutable_file_containing_extension()->set_extension_number(100);
  EXPECT_EQ(ask(service, extension).error_response().error_code(), 5);
  rpb::ServerReflectionRequest numbers;
  numbers.set_all_extension_numbers_of_type("wirebench.echo.GreetRequest");
  const auto response = ask(service, numbers);
  EXPECT_EQ(response.all_extension_numbers_response().base_type_name(), "wirebench.echo.GreetRequest");
  EXPECT_EQ(response.all_extension_numbers_response().extension_number_size(), 0);
}

TEST(grpc_reflection, bytes_that_are_no_request_are_refused) {
  reflection_service service;
  std::string out;
  EXPECT_FALSE(service.answer("\xff\xff\xff", out));
}

// --reflect's requests are raw calls of our unary codec (grpc_reflection_fetch.cpp): they carry
// the user call's -H metadata as its calls do (grpcurl sends -H with its reflection requests too).
TEST(grpc_reflection, a_raw_reflection_request_carries_the_metadata) {
  grpc_client_config config{.authority = "localhost:7000",
                            .raw_path = "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
                            .raw_metadata = {{"x-team", "blue"}, {"x-raw-bin", "\x01hi"}}};
  auto codec = make_grpc_client_codec(config);
  gather_queue out;
  ASSERT_FALSE(codec->open(out));
  ASSERT_FALSE(codec->encode(1, "\x3a\x00", out));
  ASSERT_FALSE(codec->produce(out));
  std::string wire;
  out.for_each_segment([&](std::span<const std::byte> s) { wire.append(as_text(s)); });
  ASSERT_TRUE(wire.starts_with(test::h2::preface));
  const auto frames = test::h2::frames_of(std::string_view(wire).substr(test::h2::preface.size()));
  const auto* headers = test::h2::find(frames, test::h2::type_headers);
  ASSERT_NE(headers, nullptr);
  const auto fields = test::h2::decode_headers(headers->payload);
  const auto has = [&](const std::string& name, const std::string& value) {
    return std::find(fields.begin(), fields.end(), std::pair(name, value)) != fields.end();
  };
  EXPECT_TRUE(has(":path", config.raw_path));
  EXPECT_TRUE(has("x-team", "blue"));
  EXPECT_TRUE(has("x-raw-bin", "AWhp")) << "a -bin value goes base64";
}

}  // namespace
}  // namespace wirebench::grpc_wire
