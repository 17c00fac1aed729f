#!/bin/sh
# One-shot job of docker-compose.prod.yml: a private CA and the certificates of the two stores,
# written once into the `certs` volume. Certificates you provide instead (same file names, see
# the README) are kept: the job only fills in what is missing.
set -eu
umask 022
out=/certs
mkdir -p "$out/ca" "$out/eventstore" "$out/mongo"

if [ ! -s "$out/ca/ca.key" ]; then
  openssl req -x509 -newkey rsa:4096 -sha256 -days 3650 -nodes \
    -keyout "$out/ca/ca.key" -out "$out/ca/ca.crt" -subj "/CN=svc internal CA"
fi

# $1 = directory and DNS name of the service.
node_cert() {
  name="$1"
  [ -s "$out/$name/node.crt" ] && return 0
  openssl req -newkey rsa:2048 -nodes -keyout "$out/$name/node.key" -out "$out/$name/node.csr" -subj "/CN=$name"
  printf 'subjectAltName=DNS:%s,DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth\n' "$name" > "$out/$name/ext.cnf"
  openssl x509 -req -in "$out/$name/node.csr" -CA "$out/ca/ca.crt" -CAkey "$out/ca/ca.key" -CAcreateserial \
    -days 825 -sha256 -extfile "$out/$name/ext.cnf" -out "$out/$name/node.crt"
  rm -f "$out/$name/node.csr" "$out/$name/ext.cnf"
}
node_cert eventstore
node_cert mongo

# mongod wants the key and certificate in one file, and a key file for the replica set's
# internal authentication (required once --auth is on).
cat "$out/mongo/node.key" "$out/mongo/node.crt" > "$out/mongo/node.pem"
[ -s "$out/mongo/replica.key" ] || openssl rand -base64 756 > "$out/mongo/replica.key"

# Owners: the CA key stays root's; EventStoreDB runs as uid 1000, mongod as uid 999.
chmod 600 "$out/ca/ca.key"
chown -R 1000:1000 "$out/eventstore" && chmod 400 "$out/eventstore/node.key"
chown -R 999:999 "$out/mongo" && chmod 400 "$out/mongo/node.key" "$out/mongo/node.pem" "$out/mongo/replica.key"
echo "certificates in $out: ca, eventstore, mongo"
