package generated_test

// Schema names used below, with where each comes from.
const (
	envelope = "reference mcp umbrella envelope (formatMcpInputForPrompt)"

	fs = "servers filesystem " // modelcontextprotocol/servers src/filesystem/index.ts

	gh    = "github-mcp-server "         // github/github-mcp-server pkg/github/__toolsnaps__
	ghOld = "github-mcp-server (older) " // the same, before the consolidations
	ghArc = "servers-archived github "   // src/github/index.ts

	git   = "servers git "                  // src/git/src/mcp_server_git/server.py
	pg    = "servers-archived postgres "    // src/postgres/index.ts
	lite  = "servers-archived sqlite "      // src/sqlite/src/mcp_server_sqlite/server.py
	mydc  = "designcomputer mysql "         // src/mysql_mcp_server/server.py
	mybb  = "benborla mysql "               // index.ts
	pwNow = "playwright-mcp v0.0.79 "       // README generated from the zod schemas
	pwMid = "playwright-mcp v0.0.70 "       // element?, ref, selector?
	pwOld = "playwright-mcp v0.0.36 "       // element, ref
	pwEA  = "executeautomation playwright " // src/tools.ts
	fetch = "servers fetch "                // src/fetch/src/mcp_server_fetch/server.py
	slArc = "servers-archived slack "       // src/slack/index.ts
	slKor = "korotovsky slack-mcp-server "  // pkg/server/server.go
	mem   = "servers memory "               // src/memory/index.ts
	brave = "servers-archived brave-search "
	bsr   = "brave-search-mcp-server " // brave/brave-search-mcp-server src/tools
	pup   = "servers-archived puppeteer "
	redis = "servers-archived redis "
	rd    = "redis mcp-redis "         // src/tools/*.py
	gl    = "servers-archived gitlab " // src/gitlab/schemas.ts
	glz   = "zereight gitlab-mcp "     // schemas.ts
	tm    = "servers time "            // src/time/src/mcp_server_time/server.py
	sen   = "servers-archived sentry "
)

// mcpSchemas: the MCP servers' tools (see stockSchemas).
var mcpSchemas = map[string]map[string][]string{
	"mcp": {
		"tool":      {envelope},
		"arguments": {envelope},
	},
	"filesystem:*": {
		"path":        {fs + "read_text_file", fs + "write_file", fs + "edit_file", fs + "search_files"},
		"paths":       {fs + "read_multiple_files"},
		"source":      {fs + "move_file"},
		"destination": {fs + "move_file"},
		"content":     {fs + "write_file"},
		"edits":       {fs + "edit_file"},
		"dryRun":      {fs + "edit_file"},
		"pattern":     {fs + "search_files"},
	},
	"github:*": {
		"owner":        {gh + "merge_pull_request", ghArc + "merge_pull_request"},
		"repo":         {gh + "merge_pull_request", ghArc + "merge_pull_request"},
		"method":       {gh + "issue_write", gh + "pull_request_review_write", gh + "actions_run_trigger"},
		"issue_number": {gh + "issue_write", gh + "add_issue_comment", ghArc + "update_issue"},
		"pull_number":  {ghArc + "merge_pull_request", ghArc + "create_pull_request_review"},
		"pullNumber":   {gh + "merge_pull_request", gh + "pull_request_review_write", gh + "update_pull_request"},
		"path":         {gh + "create_or_update_file", gh + "delete_file", ghArc + "create_or_update_file"},
		"branch":       {gh + "push_files", gh + "create_branch", ghArc + "push_files"},
		"from_branch":  {gh + "create_branch", ghArc + "create_branch"},
		"head":         {gh + "create_pull_request", ghArc + "create_pull_request"},
		"base":         {gh + "create_pull_request", gh + "update_pull_request", ghArc + "create_pull_request"},
		"query":        {gh + "search_code", ghArc + "search_repositories"},
		"q":            {ghArc + "search_code", ghArc + "search_issues"},
		"title":        {gh + "create_pull_request", gh + "issue_write", ghArc + "create_issue"},
		"body":         {gh + "add_issue_comment", gh + "pull_request_review_write", ghArc + "create_pull_request_review"},
		"message":      {gh + "push_files", gh + "create_or_update_file", gh + "delete_file", ghArc + "push_files"},
		"merge_method": {gh + "merge_pull_request", ghArc + "merge_pull_request"},
		"event":        {gh + "pull_request_review_write", ghOld + "create_and_submit_pull_request_review", ghArc + "create_pull_request_review"},
		"state":        {gh + "issue_write", gh + "update_pull_request", ghArc + "update_issue"},
		"organization": {gh + "fork_repository", gh + "create_repository", ghArc + "fork_repository"},
		"workflow_id":  {gh + "actions_run_trigger", ghOld + "run_workflow"},
		"ref":          {gh + "actions_run_trigger", ghOld + "run_workflow"},
		"inputs":       {gh + "actions_run_trigger", ghOld + "run_workflow"},
		"run_id":       {gh + "actions_run_trigger"},
		"files":        {gh + "push_files", ghArc + "push_files"},
		"sha":          {gh + "create_or_update_file", ghArc + "create_or_update_file"},
		"name":         {gh + "create_repository", ghArc + "create_repository"},
		"private":      {gh + "create_repository", ghArc + "create_repository"},
		"reaction":     {gh + "add_issue_comment"},
		"filename":     {gh + "create_gist", gh + "update_gist"},
		"public":       {gh + "create_gist"},
		"content":      {gh + "create_gist", gh + "create_or_update_file", ghArc + "create_or_update_file"},
	},
	"git:*": {
		"repo_path":    {git + "git_status", git + "git_commit", git + "git_add"},
		"branch_name":  {git + "git_create_branch", git + "git_checkout"},
		"base_branch":  {git + "git_create_branch"},
		"target":       {git + "git_diff"},
		"revision":     {git + "git_show"},
		"files":        {git + "git_add"},
		"message":      {git + "git_commit"},
		"contains":     {git + "git_branch"},
		"not_contains": {git + "git_branch"},
	},
	"postgres:query": {
		"sql": {pg + "query"},
	},
	"sqlite:*": {
		"query":      {lite + "read_query", lite + "write_query", lite + "create_table"},
		"table_name": {lite + "describe_table"},
	},
	"mysql:*": {
		"query": {mydc + "execute_sql"},
		"sql":   {mybb + "mysql_query"},
	},
	"playwright:*": {
		"url":            {pwNow + "browser_navigate", pwEA + "playwright_navigate", pwEA + "playwright_post"},
		"element":        {pwNow + "browser_click", pwMid + "browser_click", pwOld + "browser_click"},
		"target":         {pwNow + "browser_click", pwNow + "browser_type", pwNow + "browser_evaluate"},
		"ref":            {pwMid + "browser_click", pwOld + "browser_click"},
		"selector":       {pwMid + "browser_click", pwEA + "playwright_click", pwEA + "playwright_fill"},
		"iframeSelector": {pwEA + "playwright_iframe_click", pwEA + "playwright_iframe_fill"},
		"text":           {pwNow + "browser_type", pwOld + "browser_type"},
		"value":          {pwEA + "playwright_fill", pwEA + "playwright_select", pwEA + "playwright_post"},
		"values":         {pwNow + "browser_select_option", pwOld + "browser_select_option"},
		"key":            {pwNow + "browser_press_key", pwEA + "playwright_press_key"},
		"submit":         {pwNow + "browser_type", pwOld + "browser_type"},
		"doubleClick":    {pwNow + "browser_click", pwOld + "browser_click"},
		"function":       {pwNow + "browser_evaluate", pwOld + "browser_evaluate"},
		"code":           {pwNow + "browser_run_code_unsafe", pwMid + "browser_run_code"},
		"script":         {pwEA + "playwright_evaluate"},
		"filename":       {pwNow + "browser_run_code_unsafe", pwMid + "browser_run_code"},
		"paths":          {pwNow + "browser_file_upload", pwNow + "browser_drop", pwOld + "browser_file_upload"},
		"filePath":       {pwEA + "playwright_upload_file"},
		"data":           {pwNow + "browser_drop"},
		"fields":         {pwNow + "browser_fill_form", pwOld + "browser_fill_form"},
		"accept":         {pwNow + "browser_handle_dialog", pwOld + "browser_handle_dialog"},
		"promptText":     {pwNow + "browser_handle_dialog", pwOld + "browser_handle_dialog"},
		"startElement":   {pwNow + "browser_drag", pwOld + "browser_drag"},
		"startTarget":    {pwNow + "browser_drag"},
		"startRef":       {pwMid + "browser_drag", pwOld + "browser_drag"},
		"endElement":     {pwNow + "browser_drag", pwOld + "browser_drag"},
		"endTarget":      {pwNow + "browser_drag"},
		"endRef":         {pwMid + "browser_drag", pwOld + "browser_drag"},
		"sourceSelector": {pwEA + "playwright_drag"},
		"targetSelector": {pwEA + "playwright_drag"},
		"token":          {pwEA + "playwright_get", pwEA + "playwright_post", pwEA + "playwright_delete"},
		"headers":        {pwEA + "playwright_get", pwEA + "playwright_post", pwEA + "playwright_delete"},
	},
	"fetch:fetch": {
		"url":         {fetch + "fetch"},
		"max_length":  {fetch + "fetch"},
		"start_index": {fetch + "fetch"},
		"raw":         {fetch + "fetch"},
	},
	"slack:*": {
		"channel_id": {slArc + "slack_post_message", slKor + "conversations_add_message", slKor + "reactions_add"},
		"text":       {slArc + "slack_post_message", slArc + "slack_reply_to_thread", slKor + "conversations_add_message"},
		"payload":    {slKor + "conversations_add_message (v1.1.x)"},
		"thread_ts":  {slArc + "slack_reply_to_thread", slKor + "conversations_add_message"},
		"timestamp":  {slArc + "slack_add_reaction", slKor + "reactions_add", slKor + "reactions_remove"},
		"reaction":   {slArc + "slack_add_reaction"},
		"emoji":      {slKor + "reactions_add", slKor + "reactions_remove"},
	},
	"memory:*": {
		"entities":     {mem + "create_entities"},
		"relations":    {mem + "create_relations", mem + "delete_relations"},
		"observations": {mem + "add_observations"},
		"entityNames":  {mem + "delete_entities"},
		"deletions":    {mem + "delete_observations"},
		"query":        {mem + "search_nodes"},
		"names":        {mem + "open_nodes"},
	},
	"brave-search:*": {
		"query":  {brave + "brave_web_search", brave + "brave_local_search", bsr + "brave_news_search", bsr + "brave_image_search"},
		"count":  {brave + "brave_web_search", brave + "brave_local_search", bsr + "brave_news_search"},
		"offset": {brave + "brave_web_search", bsr + "brave_news_search"},
		"key":    {bsr + "brave_summarizer"},
	},
	"puppeteer:*": {
		"url":            {pup + "puppeteer_navigate"},
		"launchOptions":  {pup + "puppeteer_navigate"},
		"allowDangerous": {pup + "puppeteer_navigate"},
		"selector":       {pup + "puppeteer_click", pup + "puppeteer_fill", pup + "puppeteer_screenshot"},
		"value":          {pup + "puppeteer_fill", pup + "puppeteer_select"},
		"script":         {pup + "puppeteer_evaluate"},
		"name":           {pup + "puppeteer_screenshot"},
	},
	"redis:*": {
		"key":               {redis + "set", redis + "get", redis + "delete", rd + "set", rd + "hset", rd + "zadd", rd + "xadd", rd + "delete", rd + "type"},
		"value":             {redis + "set", rd + "set", rd + "hset", rd + "lpush", rd + "sadd", rd + "json_set"},
		"expireSeconds":     {redis + "set"},
		"pattern":           {redis + "list", rd + "scan_keys", rd + "psubscribe"},
		"name":              {rd + "hset", rd + "lpush", rd + "sadd", rd + "json_set", rd + "expire"},
		"expiration":        {rd + "set", rd + "zadd", rd + "xadd"},
		"expire_seconds":    {rd + "hset", rd + "sadd", rd + "json_set", rd + "expire"},
		"expire":            {rd + "lpush", rd + "rpush"},
		"vector":            {rd + "set_vector_in_hash"},
		"vector_field":      {rd + "set_vector_in_hash", rd + "create_vector_index_hash"},
		"start":             {rd + "lrange", rd + "zrange"},
		"stop":              {rd + "lrange"},
		"end":               {rd + "zrange"},
		"count":             {rd + "lrem", rd + "xrange", rd + "scan_keys"},
		"element":           {rd + "lrem"},
		"score":             {rd + "zadd"},
		"member":            {rd + "zadd", rd + "zrem"},
		"with_scores":       {rd + "zrange"},
		"channel":           {rd + "publish", rd + "subscribe"},
		"message":           {rd + "publish"},
		"subscription_id":   {rd + "read_messages", rd + "unsubscribe"},
		"timeout_ms":        {rd + "read_messages"},
		"max_messages":      {rd + "read_messages"},
		"fields":            {rd + "xadd"},
		"entry_id":          {rd + "xdel"},
		"group_name":        {rd + "xgroup_create", rd + "xreadgroup", rd + "xack"},
		"start_id":          {rd + "xgroup_create"},
		"mkstream":          {rd + "xgroup_create"},
		"consumer_name":     {rd + "xreadgroup"},
		"block_ms":          {rd + "xreadgroup"},
		"stream_id":         {rd + "xreadgroup"},
		"entry_ids":         {rd + "xack"},
		"path":              {rd + "json_set", rd + "json_get", rd + "json_del"},
		"old_key":           {rd + "rename"},
		"new_key":           {rd + "rename"},
		"cursor":            {rd + "scan_keys"},
		"batch_size":        {rd + "scan_all_keys"},
		"question":          {rd + "search_redis_documents"},
		"section":           {rd + "info"},
		"index_name":        {rd + "get_index_info", rd + "create_vector_index_hash", rd + "vector_search_hash"},
		"prefix":            {rd + "create_vector_index_hash"},
		"dim":               {rd + "create_vector_index_hash"},
		"distance_metric":   {rd + "create_vector_index_hash"},
		"query_vector":      {rd + "vector_search_hash", rd + "hybrid_search"},
		"k":                 {rd + "vector_search_hash", rd + "hybrid_search"},
		"return_fields":     {rd + "vector_search_hash", rd + "hybrid_search"},
		"filter_expression": {rd + "hybrid_search"},
	},
	"gitlab:*": {
		"project_id":                   {gl + "create_or_update_file", gl + "push_files", gl + "create_merge_request"},
		"file_path":                    {gl + "create_or_update_file", gl + "get_file_contents"},
		"branch":                       {gl + "create_or_update_file", gl + "push_files", gl + "create_branch"},
		"ref":                          {gl + "create_branch", gl + "get_file_contents"},
		"source_branch":                {gl + "create_merge_request"},
		"target_branch":                {gl + "create_merge_request"},
		"namespace":                    {gl + "fork_repository"},
		"files":                        {gl + "push_files"},
		"commit_message":               {gl + "create_or_update_file", gl + "push_files"},
		"title":                        {gl + "create_issue", gl + "create_merge_request"},
		"search":                       {gl + "search_repositories"},
		"branch_name":                  {glz + "delete_branch"},
		"merge_request_iid":            {glz + "merge_merge_request"},
		"squash":                       {glz + "merge_merge_request"},
		"should_remove_source_branch":  {glz + "merge_merge_request"},
		"auto_merge":                   {glz + "merge_merge_request"},
		"merge_when_pipeline_succeeds": {glz + "merge_merge_request"},
		"variables":                    {glz + "create_pipeline"},
		"inputs":                       {glz + "create_pipeline"},
		"name":                         {glz + "create_repository"},
		"visibility":                   {glz + "create_repository"},
		"namespace_id":                 {glz + "create_repository"},
	},
	"time:*": {
		"timezone":        {tm + "get_current_time"},
		"source_timezone": {tm + "convert_time"},
		"target_timezone": {tm + "convert_time"},
		"time":            {tm + "convert_time"},
	},
	"sentry:get_sentry_issue": {
		"issue_id_or_url": {sen + "get_sentry_issue"},
	},
}
