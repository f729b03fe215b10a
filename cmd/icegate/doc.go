// Command icegate is the icegate server binary: a PostgreSQL wire protocol
// front end for Apache Iceberg tables.
//
// It is wiring only and sits at the top of the statement flow: `icegate
// serve` loads the configuration (package conf), opens the filesystem
// catalog (catalog), builds the SQL backend (translate), the authenticator
// (auth) and the protocol server (wire), and serves until SIGINT or SIGTERM.
// `icegate sample` writes a small sample lakehouse (schemas shop and tpch)
// into the warehouse through that same stack, over a loopback connection.
// `icegate user add` prints a SCRAM-SHA-256 verifier to paste under `users:`
// in icegate.yaml; `icegate version` prints the build.
package main
