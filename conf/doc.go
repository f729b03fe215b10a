package conf

// Where conf sits: cmd/icegate calls Load once at start, before anything
// listens. The validated Config then wires the rest: Warehouse, CatalogName
// and PathPrefixes open the filesystem catalog; Users and Password configure
// auth; Listen, TLS and MaxConnections configure wire; LogLevel the logger.
// Nothing else reads the environment, files or flags.
//
// Layers, lowest first: built-in defaults, the file (an explicit --config
// FILE, else ./icegate.yaml when present), ICEGATE_* environment variables,
// then flags the user set. Keys and defaults are documented on the Config
// fields; AddFlags defines the flags and EnvVars lists the variables.
//
// conf also holds the one registry of Iceberg's read and write options
// (iceberg_options.go; their value checks in iceberg_options_check.go): the
// binder (translate/bind) checks OPTIONS hints against it, and translate
// makes the session settings iceberg.<option> from it and resolves an
// option across statement, session, table property and default.
