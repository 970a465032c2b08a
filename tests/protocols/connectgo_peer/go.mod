module wirebench/connectgo_peer

go 1.26.0

require (
	connectrpc.com/connect v1.21.1
	golang.org/x/net v0.60.0
	google.golang.org/protobuf v1.36.12
)

require golang.org/x/text v0.42.0 // indirect
