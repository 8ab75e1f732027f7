-- bench/paths.lua: wrk script cycling through a list of request paths that bench/run writes, one a line
-- (searches such as /v1/foods?q=cheese%20cheddar&group=0100&page=2, or food details /v1/foods/01009).
-- Environment: BENCH_PATHS_FILE (the list), BENCH_API_KEY (sent as X-API-Key), BENCH_ACCEPT_ENCODING (optional),
-- BENCH_DELAY_MS (optional: each connection waits this long before each request, to pace the load; bench/soak).
-- Each wrk thread starts at a different offset so the threads do not send the same request at once.
local file = os.getenv("BENCH_PATHS_FILE")
local key = os.getenv("BENCH_API_KEY")
assert(file and #file > 0, "paths.lua: set BENCH_PATHS_FILE")
assert(key and #key > 0, "paths.lua: set BENCH_API_KEY")

local delay_ms = tonumber(os.getenv("BENCH_DELAY_MS") or "")
if delay_ms and delay_ms > 0 then
  function delay()
    return delay_ms
  end
end

local paths = {}
local counter = 0
local threads = 0

function setup(thread)
  thread:set("thread_index", threads)
  threads = threads + 1
end

function init(args)
  local f = assert(io.open(file, "r"), "paths.lua: cannot open " .. file)
  for line in f:lines() do
    if #line > 0 then paths[#paths + 1] = line end
  end
  f:close()
  assert(#paths > 0, "paths.lua: no paths in " .. file)
  counter = ((thread_index or 0) * 4391) % #paths
  wrk.headers["X-API-Key"] = key
  local encoding = os.getenv("BENCH_ACCEPT_ENCODING")
  if encoding and #encoding > 0 then wrk.headers["Accept-Encoding"] = encoding end
end

function request()
  counter = counter % #paths + 1
  return wrk.format("GET", paths[counter])
end
