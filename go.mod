module github.com/fairfabric/fairfabric

go 1.24

require (
	github.com/p4lang/p4runtime v1.4.1
	golang.org/x/sys v0.18.0
	google.golang.org/genproto v0.0.0-20230410155749-daa745c078e1
	google.golang.org/grpc v1.56.3
	google.golang.org/protobuf v1.33.0
)

require (
	github.com/golang/protobuf v1.5.3 // indirect
	golang.org/x/net v0.23.0 // indirect
	golang.org/x/text v0.14.0 // indirect
)
