-- Threads (docs/parallel.md): examples/scaling.lua and a model with the
-- general schedule (the crabs and one component outside the array, which
-- makes the schedule neither replicated nor chunked) give the same bits with
-- 1, 2, 3 and 4 threads: fused steps, whole-vector steps and dopri45; the
-- stats say how many threads ran; a small model runs on one (a chain in
-- waves from 1,024 crabs on two); the option is
-- checked. tests/unit/test_threads.c checks distinct copies and errors.
local lied = require "lied"
local T = require "tests.testing"
local tl = require "lied.testlib"

local Scaling = dofile("examples/scaling.lua")
local CraneCrab = require "cranecrab"
local General = lied.model "General" {
  parameters = { n = 1 },
  crab = lied.array(CraneCrab, lied.param "n"),
  c = tl.Constant { k = 1 }, i = tl.Integrator {},
  connect = { { "c.y", "i.u" } },
}

local N = 4100 -- 128 full chunks of 32 and a partial one: up to 4 ranges of >= 1024
local vars = "crab[1].*,crab[2049].revolute2.phi,crab[4100].*"

local function run(model, threads, opts)
  local built = lied.build(model, { n = N, ["crab.revolute2.phi"] = 0.3 })
  local o = { stop = 0.05, dt = 1e-3, interval = 0.01, progress = false, vars = vars,
              threads = threads }
  for k, v in pairs(opts) do o[k] = v end
  local res, stats, err = built:run(o)
  T.check(res and not err, "run: " .. tostring(err))
  return res, stats, built:info()
end

local function same(a, b, what)
  local diff = 0
  for _, name in ipairs(T.names(a)) do
    local ca, cb = T.column(a, name), T.column(b, name)
    for r = 1, #ca do if ca[r] ~= cb[r] then diff = diff + 1 end end
  end
  T.check(#a:names() > 10 and a:nrows() == 6, what .. ": rows and columns")
  T.eq(diff, 0, what .. ": values that differ")
end

local cases = {
  { Scaling, {}, "scaling, fused rk4", true },
  { Scaling, { fuse = false }, "scaling, whole-vector rk4", true },
  { Scaling, { solver = "dopri45", tol = 1e-8 }, "scaling, dopri45", true },
  { General, {}, "general schedule, rk4", false },
}
for _, c in ipairs(cases) do
  local model, opts, what, chunked = c[1], c[2], c[3], c[4]
  local r1, s1, info = run(model, 1, opts)
  T.eq(info.chunked, chunked, what .. ": chunked")
  T.eq(s1.threads, 1, what .. ": one thread")
  T.check(type(s1.cpu) == "number" and s1.cpu > 0, what .. ": cpu time")
  for t = 2, 4 do
    local rt, st = run(model, t, opts)
    T.eq(st.threads, t, what .. ": threads " .. t)
    same(r1, rt, what .. ", " .. t .. " threads")
  end
end

-- one thread runs the packed steps (sched.h, lied_run_step), more threads
-- the steps themselves: the general schedule above, and the district
-- network (one-instance steps and a sparse section), the same bits
local District = dofile("examples/district_heating.lua")
local district = lied.build(District, { n = 30 })
T.eq(district:info().sparse_sections, 1, "district: a sparse section")
local function district_run(threads)
  local res, st = district:run { stop = 0.05, solver = "rk4", dt = 1e-3, interval = 0.01,
                                 threads = threads, threads_any = true, progress = false,
                                 vars = "house[1].*,house[30].*,pump.*,sup[15].*" }
  return res, st
end
local d1, ds1 = district_run(1)
local d2, ds2 = district_run(2)
T.eq(ds1.threads, 1, "district: one thread")
T.eq(ds2.threads, 2, "district: two threads")
same(d1, d2, "district, 1 and 2 threads")

-- a small model stays on one thread
local small = lied.build(Scaling, { n = 16 })
local _, st = small:run { stop = 0.01, out = "none", threads = 4 }
T.eq(st.threads, 1, "16 crabs: one thread")

-- coupled arrays in waves take threads from 1,024 copies (LIED_PAR_WAVE_MIN):
-- their workers share a sweep's steps, not its chunks
local Chain = dofile("examples/crab_chain.lua")
for _, c in ipairs { { 1000, 1 }, { 1030, 2 } } do
  local chain = lied.build(Chain, { n = c[1] })
  local _, cs = chain:run { stop = 0.004, dt = 1e-3, out = "none", threads = 2, progress = false }
  T.check(chain:info().wave_gap > 0, c[1] .. " chained crabs take waves")
  T.eq(cs.threads, c[2], c[1] .. " chained crabs: threads")
end

-- the option
local b = lied.build(Scaling, { n = 2 })
for _, bad in ipairs { 0, -1, 1.5, 1025, 1e300, 0 / 0 } do
  T.raises(function() b:run { stop = 0.01, threads = bad } end,
    "run: threads must be a whole number from 1 to 1024, got " .. tostring(bad),
    "threads = " .. tostring(bad), "usage")
end
T.raises(function() b:run { stop = 0.01, threads = "2" } end,
  "run: option threads must be a whole number from 1 to 1024, got string", "threads = '2'", "usage")
T.raises(function() lied.core.check_run_options { threads = 0 } end,
  "threads must be a whole number", "check_run_options", "usage")
T.check(pcall(lied.core.check_run_options, { threads = 1024 }), "threads = 1024 is accepted")

T.done()
