-- bench/post.lua: wrk script POSTing JSON bodies that bench/run writes, one a line, in turn (the lookup's one
-- body, or 20-line recipes for /v1/analyze), to the URL's path.
-- Environment: BENCH_BODIES_FILE (the list), BENCH_API_KEY (sent as X-API-Key), BENCH_STATE_FILE (optional:
-- where the next body's index is kept between runs, so that the slices of one measurement, each a wrk run of
-- its own, go on through the list instead of sending its first bodies again).
-- Thread i of n sends bodies start + i, start + i + n, ...: no two threads send the same body.
local file = os.getenv("BENCH_BODIES_FILE")
local key = os.getenv("BENCH_API_KEY")
local state = os.getenv("BENCH_STATE_FILE")
assert(file and #file > 0, "post.lua: set BENCH_BODIES_FILE")
assert(key and #key > 0, "post.lua: set BENCH_API_KEY")

local bodies = {}
-- A global, not a local: done() reads each thread's count with thread:get, which sees only globals.
sent = 0
local threads = {}

-- The helpers both scripts share (bench/slices.lua), from this script's own directory.
local slices = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "slices.lua")
local start = slices.start(state)

function setup(thread)
  thread:set("thread_index", #threads)
  threads[#threads + 1] = thread
end

function init(args)
  bodies = slices.lines(file, "post.lua")
  thread_count = tonumber(os.getenv("BENCH_THREADS") or "") or 2
  wrk.method = "POST"
  wrk.headers["X-API-Key"] = key
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  local index = (start + thread_index + sent * thread_count) % #bodies + 1
  sent = sent + 1
  return wrk.format("POST", nil, nil, bodies[index])
end

function done(summary, latency, requests)
  slices.save(state, "post.lua", start + slices.most_sent(threads) * #threads)
end
