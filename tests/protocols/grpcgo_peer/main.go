// grpcgo_peer: a grpc-go (google.golang.org/grpc) server of wirebench.echo.Echo's Greet,
// GreetStream and GreetBatchStream (proto/echo.proto) and of Echo's Get, Expand, Collect and Update,
// under our service name and under article 003's (echo.v1.Echo): a gRPC implementation we did not
// write, for the interop tests, scripts/grpc-cost and `wirebench run --scenario echo` (article 003's
// grpc-go server). scripts/setup builds it into the tools cache.
//
//	grpcgo_peer [-port PORT | -socket @NAME] [-ready-fd N]
//	    serves on 127.0.0.1:PORT (0: a free one) or the Unix socket (@name: Linux's abstract
//	    namespace, as the article's servers listen), prints "listening" and, with -ready-fd, writes
//	    its endpoint ("tcp://127.0.0.1:PORT", "unix:@NAME") as one line to that descriptor (what
//	    `wirebench run` waits for); serves until killed
//
// No generated code: every method goes to one stream handler, with a codec that hands the message
// bytes through, and GreetRequest{id: 1, name: 2} is read and GreetReply{id: 1, greeting: 2}
// written with protowire. Greet answers "hello, " + name; GreetStream each request with its id;
// GreetBatchStream each GreetBatch{requests: 1} with a GreetReplyBatch{replies: 1}; Echo's methods
// read EchoRequest{text: 1} and write EchoResponse{text: 1}: Get the text, Expand one reply per
// word, Collect the texts joined, Update each text as it comes (as our server and connectgo_peer
// answer them); any other method is UNIMPLEMENTED.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"strings"

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

// echoText reads EchoRequest{text: 1}; false when it is not one.
func echoText(request []byte) (string, bool) {
	text := ""
	for len(request) > 0 {
		num, typ, n := protowire.ConsumeTag(request)
		if n < 0 {
			return "", false
		}
		request = request[n:]
		if num == 1 && typ == protowire.BytesType {
			var b []byte
			b, n = protowire.ConsumeBytes(request)
			text = string(b)
		} else {
			n = protowire.ConsumeFieldValue(num, typ, request)
		}
		if n < 0 {
			return "", false
		}
		request = request[n:]
	}
	return text, true
}

// echoResponse writes EchoResponse{text: 1}.
func echoResponse(text string) []byte {
	out := protowire.AppendTag(nil, 1, protowire.BytesType)
	return protowire.AppendString(out, text)
}

var errNotEcho = status.Error(codes.Internal, "cannot parse the request")

// handleEcho serves Echo's four methods on the stream; false when `method` is none of them.
func handleEcho(method string, stream grpc.ServerStream) (bool, error) {
	var service string
	for _, prefix := range []string{"/wirebench.echo.Echo/", "/echo.v1.Echo/"} {
		if strings.HasPrefix(method, prefix) {
			service = prefix
		}
	}
	if service == "" {
		return false, nil
	}
	recv := func() (string, error) {
		var in []byte
		if err := stream.RecvMsg(&in); err != nil {
			return "", err
		}
		if text, ok := echoText(in); ok {
			return text, nil
		}
		return "", errNotEcho
	}
	send := func(text string) error {
		out := echoResponse(text)
		return stream.SendMsg(&out)
	}
	switch strings.TrimPrefix(method, service) {
	case "Get":
		text, err := recv()
		if err != nil {
			return true, err
		}
		return true, send(text)
	case "Expand":
		text, err := recv()
		if err != nil {
			return true, err
		}
		for _, word := range strings.Fields(text) {
			if err := send(word); err != nil {
				return true, err
			}
		}
		return true, nil
	case "Collect":
		joined := ""
		for {
			text, err := recv()
			if errors.Is(err, io.EOF) {
				return true, send(joined)
			} else if err != nil {
				return true, err
			}
			joined += text
		}
	case "Update":
		for {
			text, err := recv()
			if errors.Is(err, io.EOF) {
				return true, nil
			} else if err != nil {
				return true, err
			}
			if err := send(text); err != nil {
				return true, err
			}
		}
	}
	return false, nil
}

func handle(_ any, stream grpc.ServerStream) error {
	method, _ := grpc.MethodFromServerStream(stream)
	if served, err := handleEcho(method, stream); served {
		return err
	}
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
	port := flag.Int("port", 0, "the 127.0.0.1 port to serve on (0: a free one)")
	socket := flag.String("socket", "", "serve on this Unix socket instead (@name: abstract)")
	readyFD := flag.Int("ready-fd", -1, "write the endpoint, one line, to this descriptor once listening")
	flag.Parse()
	network, address := "tcp", fmt.Sprintf("127.0.0.1:%d", *port)
	if *socket != "" {
		network, address = "unix", *socket
	}
	listener, err := net.Listen(network, address)
	if err != nil {
		fmt.Fprintln(os.Stderr, "grpcgo_peer:", err)
		os.Exit(1)
	}
	server := grpc.NewServer(grpc.ForceServerCodec(rawCodec{}), grpc.UnknownServiceHandler(handle))
	fmt.Println("listening")
	if *readyFD >= 0 {
		announce(*readyFD, listener.Addr())
	}
	if err := server.Serve(listener); err != nil {
		fmt.Fprintln(os.Stderr, "grpcgo_peer:", err)
		os.Exit(1)
	}
}

// announce writes the endpoint as wirebench names endpoints, one line, to descriptor fd.
func announce(fd int, addr net.Addr) {
	f := os.NewFile(uintptr(fd), "ready")
	if addr.Network() == "unix" {
		fmt.Fprintf(f, "unix:%s\n", addr.String())
	} else {
		fmt.Fprintf(f, "tcp://%s\n", addr.String())
	}
	f.Close()
}
