// connectgo_peer: connect-go (connectrpc.com/connect), the Connect protocol's reference
// implementation, as a peer we did not write: its server of wirebench.echo.Echo (proto/echo.proto:
// Greet, GreetStream, Get, Expand, Collect, Update) answering Connect, gRPC and gRPC-Web on one
// port, HTTP/1.1 and h2c; and its client calling any of those methods in any of the three protocols. For the
// interop tests; scripts/setup builds it into the tools cache. Echo's four methods are served under
// article 003's service name too (echo.v1.Echo), and both sides reach abstract Unix sockets.
//
//	connectgo_peer serve [-port PORT | -socket @NAME] [-ready-fd N]
//	    serves on 127.0.0.1:PORT (0: a free one) or the Unix socket (@name: abstract), prints
//	    "listening" and, with -ready-fd, writes its endpoint ("tcp://127.0.0.1:PORT", "unix:@NAME")
//	    as one line to that descriptor (what `wirebench run` waits for); serves until killed
//	connectgo_peer call -url http://127.0.0.1:PORT [-protocol connect|grpc|grpcweb] [-codec proto|json]
//	                    [-http1] [-method greet|get|expand|collect|update] [-text T] [-count N] [-gzip]
//	                    [-socket @NAME] [-service wirebench.echo.Echo|echo.v1.Echo] [-get]
//	    prints each reply as "reply: TEXT", or the error as "error: CODE: MESSAGE"; exits 0 either way
//	    (1 on a usage or transport problem that is not an RPC error); with -n N [-warmup W] Echo's
//	    method is made W times, then N times timed, as article 003's echo-go client times it, and
//	    one line says "timed: calls=N failed=F mean_ns=M" (see timeCalls)
//
// No generated code: a codec hands the message bytes through (one named "proto", one "json"), and
// the handlers read and write EchoRequest{text: 1}, EchoResponse{text: 1}, GreetRequest{id: 1,
// name: 2} and GreetReply{id: 1, greeting: 2} themselves, with protowire or encoding/json.
// Greet answers "hello, " + name; Get the text; Expand one reply per word; Collect the texts
// joined; Update each text as it comes. A name of "fail:CODE" fails Greet with that Connect code.
package main

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"connectrpc.com/connect"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/h2c"
	"google.golang.org/protobuf/encoding/protowire"
)

// rawCodec passes a message's bytes through, under the name of the codec it stands in for.
type rawCodec struct{ name string }

func (c rawCodec) Name() string                { return c.name }
func (rawCodec) Marshal(v any) ([]byte, error) { return *v.(*[]byte), nil }

// MarshalStable and IsBinary make it a stable codec, which connect-go's GET needs (the bytes are
// the message's own, so they are as stable as the caller made them).
func (c rawCodec) MarshalStable(v any) ([]byte, error) { return c.Marshal(v) }
func (c rawCodec) IsBinary() bool                      { return c.name == "proto" }
func (rawCodec) Unmarshal(data []byte, v any) error {
	*v.(*[]byte) = append((*v.(*[]byte))[:0], data...)
	return nil
}

// A message's fields: the string field `field` (text 1, name 2) and the id (1, GreetRequest's).
type fields struct {
	text string
	id   uint64
}

func decode(data []byte, isJSON bool, field protowire.Number) (fields, error) {
	var f fields
	if isJSON {
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			return f, err
		}
		keys := []string{"text"}
		if field == 2 {
			keys = []string{"name", "greeting"}
		}
		for _, key := range keys {
			if text, ok := m[key].(string); ok {
				f.text = text
			}
		}
		return f, nil
	}
	for len(data) > 0 {
		num, typ, n := protowire.ConsumeTag(data)
		if n < 0 {
			return f, errors.New("bad tag")
		}
		data = data[n:]
		switch {
		case num == field && typ == protowire.BytesType:
			var b []byte
			b, n = protowire.ConsumeBytes(data)
			f.text = string(b)
		case num == 1 && typ == protowire.VarintType:
			f.id, n = protowire.ConsumeVarint(data)
		default:
			n = protowire.ConsumeFieldValue(num, typ, data)
		}
		if n < 0 {
			return f, errors.New("bad field")
		}
		data = data[n:]
	}
	return f, nil
}

// encode writes the string field `field` (1, EchoRequest's and EchoResponse's text; 2,
// GreetRequest's name or GreetReply's greeting: `key` in JSON).
func encode(text string, isJSON bool, field protowire.Number, key string) []byte {
	if isJSON {
		out, _ := json.Marshal(map[string]string{key: text})
		return out
	}
	return protowire.AppendString(protowire.AppendTag(nil, field, protowire.BytesType), text)
}

func jsonOf(h http.Header) bool { return strings.Contains(h.Get("Content-Type"), "json") }

// answerEach answers each message of a bidi stream as it comes (its string field `field` and id
// decoded), with what reply makes of it, until the client ends its side.
func answerEach(s *connect.BidiStream[[]byte, []byte], field protowire.Number, reply func(in fields, isJSON bool) []byte) error {
	isJSON := jsonOf(s.RequestHeader())
	for {
		msg, err := s.Receive()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		in, err := decode(*msg, isJSON, field)
		if err != nil {
			return connect.NewError(connect.CodeInvalidArgument, err)
		}
		out := reply(in, isJSON)
		if err := s.Send(&out); err != nil {
			return err
		}
	}
}

func serve(port int, socket string, readyFD int) error {
	codecs := []connect.HandlerOption{connect.WithCodec(rawCodec{"proto"}), connect.WithCodec(rawCodec{"json"})}
	mux := http.NewServeMux()
	const prefix = "/wirebench.echo.Echo/"
	mux.Handle(prefix+"Greet", connect.NewUnaryHandler(prefix+"Greet", func(ctx context.Context, r *connect.Request[[]byte]) (*connect.Response[[]byte], error) {
		isJSON := jsonOf(r.Header())
		in, err := decode(*r.Msg, isJSON, 2)
		if err != nil {
			return nil, connect.NewError(connect.CodeInvalidArgument, err)
		}
		if code, ok := strings.CutPrefix(in.text, "fail:"); ok {
			var c connect.Code
			if c.UnmarshalText([]byte(code)) != nil {
				c = connect.CodeUnknown
			}
			return nil, connect.NewError(c, errors.New("failed as asked"))
		}
		out := encode("hello, "+in.text, isJSON, 2, "greeting")
		return connect.NewResponse(&out), nil
	}, codecs...))
	// GreetStream: every GreetRequest answered by a GreetReply with its id, as it comes (the stream
	// our grpc-stream and connect-stream clients put every call of a connection on).
	mux.Handle(prefix+"GreetStream", connect.NewBidiStreamHandler(prefix+"GreetStream", func(ctx context.Context, s *connect.BidiStream[[]byte, []byte]) error {
		return answerEach(s, 2, func(in fields, isJSON bool) []byte {
			if isJSON {
				out, _ := json.Marshal(map[string]any{"id": in.id, "greeting": "hello, " + in.text})
				return out
			}
			out := encode("hello, "+in.text, false, 2, "greeting")
			if in.id != 0 {
				out = protowire.AppendVarint(protowire.AppendTag(out, 1, protowire.VarintType), in.id)
			}
			return out
		})
	}, codecs...))
	// Echo's four methods under our name and under article 003's (echo.v1.Echo), as our server
	// serves them.
	for _, service := range []string{prefix, "/echo.v1.Echo/"} {
		mux.Handle(service+"Get", connect.NewUnaryHandler(service+"Get", func(ctx context.Context, r *connect.Request[[]byte]) (*connect.Response[[]byte], error) {
			isJSON := jsonOf(r.Header())
			in, err := decode(*r.Msg, isJSON, 1)
			if err != nil {
				return nil, connect.NewError(connect.CodeInvalidArgument, err)
			}
			out := encode(in.text, isJSON, 1, "text")
			return connect.NewResponse(&out), nil
		}, codecs...))
		mux.Handle(service+"Expand", connect.NewServerStreamHandler(service+"Expand", func(ctx context.Context, r *connect.Request[[]byte], s *connect.ServerStream[[]byte]) error {
			isJSON := jsonOf(r.Header())
			in, err := decode(*r.Msg, isJSON, 1)
			if err != nil {
				return connect.NewError(connect.CodeInvalidArgument, err)
			}
			for _, word := range strings.Fields(in.text) {
				out := encode(word, isJSON, 1, "text")
				if err := s.Send(&out); err != nil {
					return err
				}
			}
			return nil
		}, codecs...))
		mux.Handle(service+"Collect", connect.NewClientStreamHandler(service+"Collect", func(ctx context.Context, s *connect.ClientStream[[]byte]) (*connect.Response[[]byte], error) {
			isJSON := jsonOf(s.RequestHeader())
			joined := ""
			for s.Receive() {
				in, err := decode(*s.Msg(), isJSON, 1)
				if err != nil {
					return nil, connect.NewError(connect.CodeInvalidArgument, err)
				}
				joined += in.text
			}
			if err := s.Err(); err != nil {
				return nil, err
			}
			out := encode(joined, isJSON, 1, "text")
			return connect.NewResponse(&out), nil
		}, codecs...))
		mux.Handle(service+"Update", connect.NewBidiStreamHandler(service+"Update", func(ctx context.Context, s *connect.BidiStream[[]byte, []byte]) error {
			return answerEach(s, 1, func(in fields, isJSON bool) []byte { return encode(in.text, isJSON, 1, "text") })
		}, codecs...))
	}
	network, address := "tcp", fmt.Sprintf("127.0.0.1:%d", port)
	if socket != "" { // "@name": Linux's abstract namespace, as article 003's servers listen
		network, address = "unix", socket
	}
	listener, err := net.Listen(network, address)
	if err != nil {
		return err
	}
	fmt.Println("listening")
	if readyFD >= 0 {
		announce(readyFD, listener.Addr())
	}
	server := &http.Server{Handler: h2c.NewHandler(mux, &http2.Server{}), ReadHeaderTimeout: 10 * time.Second}
	return server.Serve(listener)
}

func call(args []string) error {
	flags := flag.NewFlagSet("call", flag.ContinueOnError)
	url := flags.String("url", "", "the server's base URL")
	protocol := flags.String("protocol", "connect", "connect, grpc or grpcweb")
	codec := flags.String("codec", "proto", "proto or json")
	http1 := flags.Bool("http1", false, "HTTP/1.1 instead of h2c")
	method := flags.String("method", "greet", "greet, get, expand, collect or update")
	text := flags.String("text", "connect-go", "the request's name or text")
	count := flags.Int("count", 1, "messages sent (collect, update), or calls made (greet, get)")
	gzip := flags.Bool("gzip", false, "compress the requests")
	socket := flags.String("socket", "", "dial this Unix socket (@name: abstract) instead of the URL's host")
	service := flags.String("service", "wirebench.echo.Echo", "the service's name: wirebench.echo.Echo or echo.v1.Echo")
	get := flags.Bool("get", false, "greet and get with HTTP GET, as side-effect-free methods (Connect only)")
	timed := flags.Int("n", 0, "Echo's get, expand, collect or update made N times and timed (see timeCalls)")
	warmup := flags.Int("warmup", 0, "with -n: calls made first, untimed")
	if err := flags.Parse(args); err != nil {
		return err
	}
	// Dials the URL's host, or with -socket the Unix socket (the URL then names no real host):
	// connect-go's clients reach an abstract socket this way, which article 003 did not find.
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		var d net.Dialer
		if *socket != "" {
			return d.DialContext(ctx, "unix", *socket)
		}
		return d.DialContext(ctx, network, addr)
	}
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DialContext: dial}}
	if !*http1 {
		client.Transport = &http2.Transport{AllowHTTP: true, DialTLSContext: func(ctx context.Context, network, addr string, _ *tls.Config) (net.Conn, error) {
			return dial(ctx, network, addr)
		}}
	}
	options := []connect.ClientOption{connect.WithCodec(rawCodec{*codec})}
	switch *protocol {
	case "grpc":
		options = append(options, connect.WithGRPC())
	case "grpcweb":
		options = append(options, connect.WithGRPCWeb())
	case "connect":
	default:
		return fmt.Errorf("no protocol %q", *protocol)
	}
	if *gzip {
		options = append(options, connect.WithSendGzip())
	}
	if *get {
		options = append(options, connect.WithHTTPGet(), connect.WithIdempotency(connect.IdempotencyNoSideEffects))
	}
	isJSON := *codec == "json"
	field := protowire.Number(1)
	procedure := map[string]string{"greet": "Greet", "get": "Get", "expand": "Expand", "collect": "Collect", "update": "Update"}[*method]
	if procedure == "" {
		return fmt.Errorf("no method %q", *method)
	}
	if procedure == "Greet" {
		field = 2
	}
	c := connect.NewClient[[]byte, []byte](client, *url+"/"+*service+"/"+procedure, options...)
	ctx := context.Background()
	report := func(reply []byte, err error) {
		if err != nil {
			fmt.Printf("error: %s: %s\n", connect.CodeOf(err), connectMessage(err))
			return
		}
		out, derr := decode(reply, isJSON, field)
		if derr != nil {
			fmt.Printf("error: reply not decoded: %v\n", derr)
			return
		}
		fmt.Printf("reply: %s\n", out.text)
	}
	key := "text"
	if field == 2 {
		key = "name"
	}
	request := encode(*text, isJSON, field, key)
	if *timed > 0 {
		return timeCalls(ctx, c, procedure, *text, *count, *warmup, *timed, isJSON)
	}
	switch procedure {
	case "Greet", "Get":
		for i := 0; i < *count; i++ {
			r, err := c.CallUnary(ctx, connect.NewRequest(&request))
			if err != nil {
				report(nil, err)
			} else {
				report(*r.Msg, nil)
			}
		}
	case "Expand":
		s, err := c.CallServerStream(ctx, connect.NewRequest(&request))
		if err != nil {
			report(nil, err)
			return nil
		}
		for s.Receive() {
			report(*s.Msg(), nil)
		}
		if err := s.Err(); err != nil {
			report(nil, err)
		}
	case "Collect":
		s := c.CallClientStream(ctx)
		sendAll(*count, func() error { return s.Send(&request) })
		if r, err := s.CloseAndReceive(); err != nil {
			report(nil, err)
		} else {
			report(*r.Msg, nil)
		}
	case "Update":
		// Each message answered before the next goes, then the end of the stream.
		s := c.CallBidiStream(ctx)
		failed := false
		sendAll(*count, func() error {
			if err := s.Send(&request); err != nil {
				return err
			}
			reply, err := s.Receive()
			if err != nil {
				report(nil, err)
				failed = true
				return err
			}
			report(*reply, nil)
			return nil
		})
		_ = s.CloseRequest()
		if _, err := s.Receive(); !failed && err != nil && !errors.Is(err, io.EOF) {
			report(nil, err)
		}
	}
	return nil
}

// timeCalls makes `warmup` calls of Echo's `procedure` untimed, then `n` timed, one after
// another, as article 003's echo-go client does with -n (its track.Measure: the time of all calls
// over their number): Get and Expand send `text`; Collect and Update send "TEXT 0" ... "TEXT
// count-1", Update all of them before it reads the replies, as echo-go's does. Every reply is
// checked (its text, and how many came); prints "timed: calls=N failed=F mean_ns=M", where a
// failed call is an error or a wrong reply (the first one's why goes to stderr).
func timeCalls(ctx context.Context, c *connect.Client[[]byte, []byte], procedure, text string, count, warmup, n int, isJSON bool) error {
	words := strings.Fields(text)
	texts := make([]string, count)
	requests := make([][]byte, count)
	for i := range texts {
		texts[i] = fmt.Sprintf("%s %d", text, i)
		requests[i] = encode(texts[i], isJSON, 1, "text")
	}
	single := encode(text, isJSON, 1, "text")
	expect := func(reply []byte, want string) error {
		got, err := decode(reply, isJSON, 1)
		if err != nil {
			return err
		}
		if got.text != want {
			return fmt.Errorf("reply %q, not %q", got.text, want)
		}
		return nil
	}
	once := func() error {
		switch procedure {
		case "Get":
			r, err := c.CallUnary(ctx, connect.NewRequest(&single))
			if err != nil {
				return err
			}
			return expect(*r.Msg, text)
		case "Expand":
			s, err := c.CallServerStream(ctx, connect.NewRequest(&single))
			if err != nil {
				return err
			}
			got := 0
			for ; s.Receive(); got++ {
				if got >= len(words) {
					return errors.New("more replies than words")
				}
				if err := expect(*s.Msg(), words[got]); err != nil {
					return err
				}
			}
			if err := s.Err(); err != nil {
				return err
			}
			if got != len(words) {
				return fmt.Errorf("%d replies for %d words", got, len(words))
			}
			return s.Close()
		case "Collect":
			s := c.CallClientStream(ctx)
			for i := range requests {
				if err := s.Send(&requests[i]); err != nil {
					break // the reply says why
				}
			}
			r, err := s.CloseAndReceive()
			if err != nil {
				return err
			}
			return expect(*r.Msg, strings.Join(texts, ""))
		case "Update":
			s := c.CallBidiStream(ctx)
			for i := range requests {
				if err := s.Send(&requests[i]); err != nil {
					break
				}
			}
			if err := s.CloseRequest(); err != nil {
				return err
			}
			for i := 0; ; i++ {
				reply, err := s.Receive()
				if errors.Is(err, io.EOF) {
					if i != len(texts) {
						return fmt.Errorf("%d replies for %d messages", i, len(texts))
					}
					return s.CloseResponse()
				}
				if err != nil {
					return err
				}
				if i >= len(texts) {
					return errors.New("more replies than messages")
				}
				if err := expect(*reply, texts[i]); err != nil {
					return err
				}
			}
		}
		return fmt.Errorf("%s is not timed", procedure)
	}
	failed := 0
	var first error
	call := func() {
		if err := once(); err != nil {
			failed++
			if first == nil {
				first = err
			}
		}
	}
	for i := 0; i < warmup; i++ {
		call()
	}
	failed, first = 0, nil
	start := time.Now()
	for i := 0; i < n; i++ {
		call()
	}
	elapsed := time.Since(start)
	if first != nil {
		fmt.Fprintln(os.Stderr, "connectgo_peer: first failure:", first)
	}
	fmt.Printf("timed: calls=%d failed=%d mean_ns=%d\n", n, failed, elapsed.Nanoseconds()/int64(n))
	return nil
}

// announce writes the endpoint as wirebench names endpoints ("tcp://127.0.0.1:PORT",
// "unix:@NAME"), one line, to descriptor fd: what `wirebench run` waits for.
func announce(fd int, addr net.Addr) {
	f := os.NewFile(uintptr(fd), "ready")
	if addr.Network() == "unix" {
		fmt.Fprintf(f, "unix:%s\n", addr.String())
	} else {
		fmt.Fprintf(f, "tcp://%s\n", addr.String())
	}
	f.Close()
}

// sendAll runs send `count` times, until it fails.
func sendAll(count int, send func() error) {
	for i := 0; i < count; i++ {
		if send() != nil {
			return
		}
	}
}

func connectMessage(err error) string {
	var ce *connect.Error
	if errors.As(err, &ce) {
		return ce.Message()
	}
	return err.Error()
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: connectgo_peer serve -port PORT | call -url URL [...]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "serve":
		flags := flag.NewFlagSet("serve", flag.ExitOnError)
		port := flags.Int("port", 0, "port on 127.0.0.1")
		socket := flags.String("socket", "", "a Unix socket instead (@name: abstract)")
		readyFD := flags.Int("ready-fd", -1, "write the endpoint, one line, to this descriptor once listening")
		_ = flags.Parse(os.Args[2:])
		err = serve(*port, *socket, *readyFD)
	case "call":
		err = call(os.Args[2:])
	default:
		err = fmt.Errorf("no command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "connectgo_peer:", err)
		os.Exit(1)
	}
}
