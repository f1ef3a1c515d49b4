package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"flag"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writePair writes a self-signed certificate and its PKCS#8 key as PEM files.
func writePair(t *testing.T, dir, name string) (string, string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	pk, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	cert, keyFile := filepath.Join(dir, name+".pem"), filepath.Join(dir, name+".key")
	if err := os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pk}), 0o600); err != nil {
		t.Fatal(err)
	}
	return cert, keyFile
}

func TestTLSFlags(t *testing.T) {
	dir := t.TempDir()
	certA, keyA := writePair(t, dir, "a")
	_, keyB := writePair(t, dir, "b")
	for _, tc := range []struct {
		name    string
		args    []string
		options int
		err     string
	}{
		{"plaintext without the flags", nil, 0, ""},
		{"TLS with both", []string{"-tls-cert", certA, "-tls-key", keyA}, 1, ""},
		{"cert alone", []string{"-tls-cert", certA}, 0, "go together"},
		{"key alone", []string{"-tls-key", keyA}, 0, "go together"},
		{"key of another certificate", []string{"-tls-cert", certA, "-tls-key", keyB}, 0, "private key does not match"},
		{"missing file", []string{"-tls-cert", filepath.Join(dir, "none.pem"), "-tls-key", keyA}, 0, "no such file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := flag.NewFlagSet("run", flag.ContinueOnError)
			f := addTLSFlags(fs)
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			opts, err := f.serverOptions()
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Fatalf("error %v, want %q", err, tc.err)
			}
			if len(opts) != tc.options {
				t.Fatalf("%d server options, want %d", len(opts), tc.options)
			}
		})
	}
}
