exit 0
--- stdout
{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"Current agent requested tool 'Bash' to run 'rm -rf build/ && make release' (described as \"Clean and build the release\") [execute]. Allow this call?"}}
--- stderr
