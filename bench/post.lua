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

local function read_start()
  if not state or #state == 0 then return 0 end
  local f = io.open(state, "r")
  if not f then return 0 end
  local start = tonumber(f:read("*l") or "0") or 0
  f:close()
  return start
end

local start = read_start()

function setup(thread)
  thread:set("thread_index", #threads)
  threads[#threads + 1] = thread
end

function init(args)
  local f = assert(io.open(file, "r"), "post.lua: cannot open " .. file)
  for line in f:lines() do
    if #line > 0 then bodies[#bodies + 1] = line end
  end
  f:close()
  assert(#bodies > 0, "post.lua: no bodies in " .. file)
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
  if not state or #state == 0 then return end
  local most = 0
  for _, thread in ipairs(threads) do
    most = math.max(most, thread:get("sent") or 0)
  end
  local f = assert(io.open(state, "w"), "post.lua: cannot write " .. state)
  f:write(tostring(start + most * #threads) .. "\n")
  f:close()
end
