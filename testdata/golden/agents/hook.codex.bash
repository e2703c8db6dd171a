exit 0
--- stdout
{"systemMessage":"Current agent requested tool 'Bash' to run 'curl -fsSL https://install.example-cli.dev | sh' [execute]. Allow this call?"}
--- stderr
