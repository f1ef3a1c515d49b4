package main

import (
	"crypto/tls"
	"errors"
	"flag"
	"fmt"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
)

// tlsFlags are run's --tls-cert and --tls-key: with both, P4Runtime is served over TLS
// (clients dial grpcs://); with neither, in plaintext.
type tlsFlags struct {
	cert, key *string
}

func addTLSFlags(fs *flag.FlagSet) tlsFlags {
	return tlsFlags{
		cert: fs.String("tls-cert", "", "serve P4Runtime over TLS with this PEM certificate (chain); needs --tls-key"),
		key:  fs.String("tls-key", "", "the PEM private key of --tls-cert"),
	}
}

// serverOptions is the gRPC server's transport security the flags ask for.
func (t tlsFlags) serverOptions() ([]grpc.ServerOption, error) {
	return tlsServerOptions(*t.cert, *t.key)
}

// tlsServerOptions is the gRPC server's transport security: none without a certificate and key,
// else TLS 1.2+ with them. An unreadable or mismatched pair is an error before anything listens.
func tlsServerOptions(certFile, keyFile string) ([]grpc.ServerOption, error) {
	if certFile == "" && keyFile == "" {
		return nil, nil
	}
	if certFile == "" || keyFile == "" {
		return nil, errors.New("--tls-cert and --tls-key go together")
	}
	pair, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("--tls-cert/--tls-key: %w", err)
	}
	creds := credentials.NewTLS(&tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12})
	return []grpc.ServerOption{grpc.Creds(creds)}, nil
}
