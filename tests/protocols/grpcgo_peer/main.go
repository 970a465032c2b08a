// grpcgo_peer: a grpc-go (google.golang.org/grpc) server of wirebench.echo.Echo's Greet,
// GreetStream and GreetBatchStream (proto/echo.proto), a gRPC implementation we did not write, for
// the interop tests and scripts/grpc-cost. scripts/setup builds it into the tools cache.
//
//	grpcgo_peer -port PORT    serves on 127.0.0.1:PORT, prints "listening", serves until killed
//
// No generated code: every method goes to one stream handler, with a codec that hands the message
// bytes through, and GreetRequest{id: 1, name: 2} is read and GreetReply{id: 1, greeting: 2}
// written with protowire. Greet answers "hello, " + name; GreetStream each request with its id;
// GreetBatchStream each GreetBatch{requests: 1} with a GreetReplyBatch{replies: 1}; any other
// method is UNIMPLEMENTED.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
)

// rawCodec passes a message's bytes through: the handler reads and writes the fields itself.
type rawCodec struct{}

func (rawCodec) Marshal(v any) ([]byte, error) { return *v.(*[]byte), nil }
func (rawCodec) Unmarshal(data []byte, v any) error {
	*v.(*[]byte) = append((*v.(*[]byte))[:0], data...)
	return nil
}
func (rawCodec) Name() string { return "proto" }

// greetReply answers one serialized GreetRequest; nil when it is not one.
func greetReply(request []byte) []byte {
	var id uint64
	var name []byte
	for len(request) > 0 {
		num, typ, n := protowire.ConsumeTag(request)
		if n < 0 {
			return nil
		}
		request = request[n:]
		switch {
		case num == 1 && typ == protowire.VarintType:
			id, n = protowire.ConsumeVarint(request)
		case num == 2 && typ == protowire.BytesType:
			name, n = protowire.ConsumeBytes(request)
		default:
			n = protowire.ConsumeFieldValue(num, typ, request)
		}
		if n < 0 {
			return nil
		}
		request = request[n:]
	}
	var reply []byte
	if id != 0 {
		reply = protowire.AppendTag(reply, 1, protowire.VarintType)
		reply = protowire.AppendVarint(reply, id)
	}
	reply = protowire.AppendTag(reply, 2, protowire.BytesType)
	return protowire.AppendBytes(reply, append([]byte("hello, "), name...))
}

// greetBatchReply answers one serialized GreetBatch; nil when it is not one.
func greetBatchReply(batch []byte) []byte {
	reply := []byte{}
	for len(batch) > 0 {
		num, typ, n := protowire.ConsumeTag(batch)
		if n < 0 || num != 1 || typ != protowire.BytesType {
			return nil
		}
		batch = batch[n:]
		request, m := protowire.ConsumeBytes(batch)
		one := greetReply(request)
		if m < 0 || one == nil {
			return nil
		}
		batch = batch[m:]
		reply = protowire.AppendTag(reply, 1, protowire.BytesType)
		reply = protowire.AppendBytes(reply, one)
	}
	return reply
}

func handle(_ any, stream grpc.ServerStream) error {
	method, _ := grpc.MethodFromServerStream(stream)
	var answer func([]byte) []byte
	switch method {
	case "/wirebench.echo.Echo/Greet", "/wirebench.echo.Echo/GreetStream":
		answer = greetReply
	case "/wirebench.echo.Echo/GreetBatchStream":
		answer = greetBatchReply
	default:
		return status.Errorf(codes.Unimplemented, "unknown method %s", method)
	}
	for {
		var in []byte
		if err := stream.RecvMsg(&in); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return err
		}
		out := answer(in)
		if out == nil {
			return status.Error(codes.Internal, "cannot parse the request")
		}
		if err := stream.SendMsg(&out); err != nil {
			return err
		}
	}
}

func main() {
	port := flag.Int("port", 0, "the 127.0.0.1 port to serve on")
	flag.Parse()
	listener, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", *port))
	if err != nil {
		fmt.Fprintln(os.Stderr, "grpcgo_peer:", err)
		os.Exit(1)
	}
	server := grpc.NewServer(grpc.ForceServerCodec(rawCodec{}), grpc.UnknownServiceHandler(handle))
	fmt.Println("listening")
	if err := server.Serve(listener); err != nil {
		fmt.Fprintln(os.Stderr, "grpcgo_peer:", err)
		os.Exit(1)
	}
}
