-- bench/mix.lua: wrk script cycling through the distinct search paths that bench/run generates from SR28
-- food names (one path a line, e.g. /v1/foods?q=cheese%20cheddar&group=0100&page=2).
-- Environment: BENCH_PATHS_FILE (the path list), BENCH_API_KEY (sent as X-API-Key).
-- Each wrk thread starts at a different offset so threads do not send the same query at the same time.
local file = os.getenv("BENCH_PATHS_FILE")
local key = os.getenv("BENCH_API_KEY")
assert(file and #file > 0, "mix.lua: set BENCH_PATHS_FILE")
assert(key and #key > 0, "mix.lua: set BENCH_API_KEY")

local paths = {}
local counter = 0
local threads = 0

function setup(thread)
  thread:set("thread_index", threads)
  threads = threads + 1
end

function init(args)
  local f = assert(io.open(file, "r"), "mix.lua: cannot open " .. file)
  for line in f:lines() do
    if #line > 0 then paths[#paths + 1] = line end
  end
  f:close()
  assert(#paths > 0, "mix.lua: no paths in " .. file)
  counter = ((thread_index or 0) * 499) % #paths
  wrk.headers["X-API-Key"] = key
end

function request()
  counter = counter % #paths + 1
  return wrk.format("GET", paths[counter])
end
