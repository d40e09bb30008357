// Command strata trains and serves hybrid text + graph retrievers over
// semi-structured knowledge bases. Run "strata help" for the commands.
package main

import "os"

func main() { os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr)) }
