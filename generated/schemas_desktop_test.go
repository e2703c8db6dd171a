package generated_test

// Peekaboo (steipete/Peekaboo) tool schemas: the MCP tools of
// Core/PeekabooCore/Sources/PeekabooAgentRuntime/MCP/Tools, which the
// Peekaboo agent also calls by their bare names, and the agent's own
// wrappers in Agent/PeekabooAgentService+Tools.swift; the tool list is
// MCP/Server/MCPToolCatalog.swift and Agent/PeekabooAgentService+Toolset.swift,
// all at commit 431661100a598848e5e347c0ca63c773ca0a1099.
const (
	pkSee     = "peekaboo see (SeeTool.swift)"
	pkClick   = "peekaboo click (ClickTool.swift)"
	pkType    = "peekaboo type (TypeTool.swift)"
	pkHotkey  = "peekaboo hotkey (HotkeyTool.swift)"
	pkScroll  = "peekaboo scroll (ScrollTool.swift)"
	pkApp     = "peekaboo app (AppTool.swift)"
	pkLaunch  = "peekaboo agent launch_app (PeekabooAgentService+Tools.swift)"
	pkList    = "peekaboo list (ListTool.swift)"
	pkWindow  = "peekaboo window (WindowTool.swift)"
	pkMenu    = "peekaboo menu (MenuTool.swift)"
	pkDialog  = "peekaboo dialog (DialogTool.swift)"
	pkDrag    = "peekaboo drag (DragTool.swift)"
	pkImage   = "peekaboo image (ImageTool.swift)"
	pkCapture = "peekaboo capture (CaptureTool.swift; the agent's watch)"
	// The earlier agent's screenshot, at commit 010ce6e94bdb0109e331c610d80481fb06bb695b.
	pkScreenshot = "peekaboo agent screenshot (Services/Agent/Tools/VisionTools.swift)"

	pkAnalyze     = "peekaboo analyze (AnalyzeTool.swift)"
	pkBrowser     = "peekaboo browser (BrowserTool.swift)"
	pkInspectUI   = "peekaboo inspect_ui (InspectUITool.swift)"
	pkSetValue    = "peekaboo set_value (SetValueTool.swift)"
	pkPerform     = "peekaboo perform_action (PerformActionTool.swift)"
	pkSwipe       = "peekaboo swipe (SwipeTool.swift)"
	pkMove        = "peekaboo move (MoveTool.swift)"
	pkDock        = "peekaboo dock (DockTool.swift)"
	pkSpace       = "peekaboo space (SpaceTool.swift)"
	pkPermissions = "peekaboo permissions (PermissionsTool.swift)"
	pkSleep       = "peekaboo sleep (SleepTool.swift)"
	pkClipboard   = "peekaboo clipboard (ClipboardTool.swift)"
	pkPaste       = "peekaboo paste (PasteTool.swift)"
	pkShell       = "peekaboo shell (ShellTool.swift)"
	pkAgent       = "peekaboo agent (MCPAgentTool.swift)"
	pkListApps    = "peekaboo agent list_apps (PeekabooAgentService+Tools.swift)"
	pkListScreens = "peekaboo agent list_screens (PeekabooAgentService+Tools.swift)"
	pkDone        = "peekaboo agent done (PeekabooAgentService+Tools.swift)"
	pkNeedInfo    = "peekaboo agent need_info (PeekabooAgentService+Tools.swift)"
)

// desktopSchemas: the desktop-automation tools (see stockSchemas).
var desktopSchemas = map[string]map[string][]string{
	"see": {
		"app_target": {pkSee},
		"path":       {pkSee},
		"snapshot":   {pkSee},
		"annotate":   {pkSee},
	},
	"click": {
		"query":      {pkClick},
		"on":         {pkClick},
		"coords":     {pkClick},
		"snapshot":   {pkClick},
		"wait_for":   {pkClick},
		"double":     {pkClick},
		"right":      {pkClick},
		"background": {pkClick},
		"pid":        {pkClick},
	},
	"type": {
		"text":         {pkType},
		"on":           {pkType},
		"snapshot":     {pkType},
		"delay":        {pkType},
		"profile":      {pkType},
		"wpm":          {pkType},
		"clear":        {pkType},
		"press_return": {pkType},
		"tab":          {pkType},
		"escape":       {pkType},
		"delete":       {pkType},
	},
	"hotkey": {
		"keys":          {pkHotkey},
		"hold_duration": {pkHotkey},
	},
	"scroll": {
		"direction": {pkScroll},
		"on":        {pkScroll},
		"snapshot":  {pkScroll},
		"amount":    {pkScroll},
		"delay":     {pkScroll},
		"smooth":    {pkScroll},
	},
	"app": {
		"action":         {pkApp},
		"name":           {pkApp},
		"bundleId":       {pkApp},
		"force":          {pkApp},
		"wait":           {pkApp},
		"waitUntilReady": {pkApp},
		"all":            {pkApp},
		"except":         {pkApp},
		"to":             {pkApp},
		"cycle":          {pkApp},
	},
	"peekaboo:list": {
		"item_type":              {pkList},
		"app":                    {pkList},
		"include_window_details": {pkList},
	},
	"window": {
		"action":    {pkWindow},
		"app":       {pkWindow},
		"title":     {pkWindow},
		"index":     {pkWindow},
		"window_id": {pkWindow},
		"x":         {pkWindow},
		"y":         {pkWindow},
		"width":     {pkWindow},
		"height":    {pkWindow},
	},
	"menu": {
		"action": {pkMenu},
		"app":    {pkMenu},
		"path":   {pkMenu},
		"item":   {pkMenu},
		"title":  {pkMenu},
	},
	"dialog": {
		"action":          {pkDialog},
		"app":             {pkDialog},
		"pid":             {pkDialog},
		"window_id":       {pkDialog},
		"window_title":    {pkDialog},
		"window_index":    {pkDialog},
		"button":          {pkDialog},
		"text":            {pkDialog},
		"field":           {pkDialog},
		"field_index":     {pkDialog},
		"clear":           {pkDialog},
		"path":            {pkDialog},
		"name":            {pkDialog},
		"select":          {pkDialog},
		"ensure_expanded": {pkDialog},
		"force":           {pkDialog},
	},
	"drag": {
		"from":                   {pkDrag},
		"from_coords":            {pkDrag},
		"to":                     {pkDrag},
		"to_coords":              {pkDrag},
		"to_app":                 {pkDrag},
		"snapshot":               {pkDrag},
		"duration":               {pkDrag},
		"steps":                  {pkDrag},
		"profile":                {pkDrag},
		"modifiers":              {pkDrag},
		"auto_focus":             {pkDrag},
		"bring_to_current_space": {pkDrag},
		"space_switch":           {pkDrag},
	},
	"image": {
		"path":          {pkImage},
		"format":        {pkImage},
		"app_target":    {pkImage},
		"question":      {pkImage},
		"capture_focus": {pkImage},
		"scale":         {pkImage},
		"retina":        {pkImage},
	},
	"capture": {
		"source":            {pkCapture},
		"mode":              {pkCapture},
		"app":               {pkCapture},
		"pid":               {pkCapture},
		"window_title":      {pkCapture},
		"window_index":      {pkCapture},
		"screen_index":      {pkCapture},
		"region":            {pkCapture},
		"capture_focus":     {pkCapture},
		"duration_seconds":  {pkCapture},
		"idle_fps":          {pkCapture},
		"active_fps":        {pkCapture},
		"threshold_percent": {pkCapture},
		"heartbeat_sec":     {pkCapture},
		"quiet_ms":          {pkCapture},
		"input":             {pkCapture},
		"sample_fps":        {pkCapture},
		"every_ms":          {pkCapture},
		"start_ms":          {pkCapture},
		"end_ms":            {pkCapture},
		"no_diff":           {pkCapture},
		"highlight_changes": {pkCapture},
		"max_frames":        {pkCapture},
		"max_mb":            {pkCapture},
		"resolution_cap":    {pkCapture},
		"diff_strategy":     {pkCapture},
		"diff_budget_ms":    {pkCapture},
		"output_dir":        {pkCapture},
		"autoclean_minutes": {pkCapture},
		"video_out":         {pkCapture},
	},
	"launch_app": {
		"name": {pkLaunch},
	},
	"screenshot": {
		"path": {pkScreenshot},
		"app":  {pkScreenshot},
	},
	"list_apps":    {},
	"list_screens": {},
	"analyze": {
		"image_path":      {pkAnalyze},
		"question":        {pkAnalyze},
		"provider_config": {pkAnalyze},
	},
	"peekaboo:browser": {
		"action":          {pkBrowser},
		"url":             {pkBrowser},
		"navigation_type": {pkBrowser},
		"page_id":         {pkBrowser},
		"uid":             {pkBrowser},
		"to_uid":          {pkBrowser},
		"text":            {pkBrowser},
		"value":           {pkBrowser},
		"key":             {pkBrowser},
		"submit_key":      {pkBrowser},
		"dialog_action":   {pkBrowser},
		"path":            {pkBrowser},
		"mcp_tool":        {pkBrowser},
		"mcp_args_json":   {pkBrowser},
	},
	"inspect_ui": {
		"app_target": {pkInspectUI},
		"snapshot":   {pkInspectUI},
	},
	"set_value": {
		"on":       {pkSetValue},
		"value":    {pkSetValue},
		"snapshot": {pkSetValue},
	},
	"perform_action": {
		"on":       {pkPerform},
		"action":   {pkPerform},
		"snapshot": {pkPerform},
	},
	"swipe": {
		"from":     {pkSwipe},
		"to":       {pkSwipe},
		"duration": {pkSwipe},
		"steps":    {pkSwipe},
		"profile":  {pkSwipe},
	},
	"move": {
		"to":          {pkMove},
		"coordinates": {pkMove},
		"id":          {pkMove},
		"snapshot":    {pkMove},
		"center":      {pkMove},
		"smooth":      {pkMove},
		"duration":    {pkMove},
		"steps":       {pkMove},
		"profile":     {pkMove},
	},
	"dock": {
		"action":      {pkDock},
		"app":         {pkDock},
		"select":      {pkDock},
		"include_all": {pkDock},
	},
	"space": {
		"action":       {pkSpace},
		"to":           {pkSpace},
		"app":          {pkSpace},
		"window_title": {pkSpace},
		"window_index": {pkSpace},
		"to_current":   {pkSpace},
		"follow":       {pkSpace},
		"detailed":     {pkSpace},
	},
	"permissions": {},
	"sleep": {
		"duration": {pkSleep},
	},
	"clipboard": {
		"action":     {pkClipboard},
		"text":       {pkClipboard},
		"filePath":   {pkClipboard},
		"imagePath":  {pkClipboard},
		"dataBase64": {pkClipboard},
		"uti":        {pkClipboard},
		"prefer":     {pkClipboard},
		"outputPath": {pkClipboard},
		"slot":       {pkClipboard},
		"alsoText":   {pkClipboard},
		"allowLarge": {pkClipboard},
	},
	"paste": {
		"app":              {pkPaste},
		"pid":              {pkPaste},
		"window_id":        {pkPaste},
		"window_title":     {pkPaste},
		"window_index":     {pkPaste},
		"text":             {pkPaste},
		"filePath":         {pkPaste},
		"imagePath":        {pkPaste},
		"dataBase64":       {pkPaste},
		"uti":              {pkPaste},
		"alsoText":         {pkPaste},
		"allowLarge":       {pkPaste},
		"restore_delay_ms": {pkPaste},
	},
	"peekaboo:shell": {
		"command": {pkShell},
	},
	"peekaboo:agent": {
		"task":          {pkAgent},
		"model":         {pkAgent},
		"quiet":         {pkAgent},
		"verbose":       {pkAgent},
		"dry_run":       {pkAgent},
		"max_steps":     {pkAgent},
		"resume":        {pkAgent},
		"resumeSession": {pkAgent},
		"listSessions":  {pkAgent},
		"noCache":       {pkAgent},
	},
	"done": {
		"message": {pkDone},
	},
	"need_info": {
		"question": {pkNeedInfo},
	},
}
