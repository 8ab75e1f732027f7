-- bench/paths.lua: wrk script cycling through a list of request paths that bench/run writes, one a line
-- (searches such as /v1/foods?q=cheese%20cheddar&group=0100&page=2, or food details /v1/foods/01009).
-- Environment: BENCH_PATHS_FILE (the list), BENCH_API_KEY (sent as X-API-Key), BENCH_ACCEPT_ENCODING (optional),
-- BENCH_DELAY_MS (optional: each connection waits this long before each request, to pace the load; bench/soak),
-- BENCH_STATE_FILE (optional: where the offset reached is kept between runs, so that the slices of one load,
-- each a wrk run of its own, go on through the list instead of sending its first paths again).
-- Each wrk thread starts at a different offset so the threads do not send the same request at once.
local file = os.getenv("BENCH_PATHS_FILE")
local key = os.getenv("BENCH_API_KEY")
local state = os.getenv("BENCH_STATE_FILE")
assert(file and #file > 0, "paths.lua: set BENCH_PATHS_FILE")
assert(key and #key > 0, "paths.lua: set BENCH_API_KEY")

-- The helpers both scripts share (bench/slices.lua), from this script's own directory.
local slices = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "slices.lua")
local start = slices.start(state)

local delay_ms = tonumber(os.getenv("BENCH_DELAY_MS") or "")
if delay_ms and delay_ms > 0 then
  function delay()
    return delay_ms
  end
end

local paths = {}
local counter = 0
-- A global, not a local: done() reads each thread's count with thread:get, which sees only globals.
sent = 0
local threads = {}

function setup(thread)
  thread:set("thread_index", #threads)
  threads[#threads + 1] = thread
end

function init(args)
  paths = slices.lines(file, "paths.lua")
  counter = (start + (thread_index or 0) * 4391) % #paths
  wrk.headers["X-API-Key"] = key
  local encoding = os.getenv("BENCH_ACCEPT_ENCODING")
  if encoding and #encoding > 0 then wrk.headers["Accept-Encoding"] = encoding end
end

function request()
  counter = counter % #paths + 1
  sent = sent + 1
  return wrk.format("GET", paths[counter])
end

function done(summary, latency, requests)
  slices.save(state, "paths.lua", start + slices.most_sent(threads))
end
