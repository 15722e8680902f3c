-- examples/crab_chain.lua (n crane crabs, carts linked by springs through one
-- connection pattern) against independent references:
-- 1. n = 3 with --set 'crab[1].prismatic1.v=1', RK4 dt 1e-3 over 2 s,
--    against the same chain's equations written here (Lagrange: each crab's
--    2x2 mass matrix, the springs' forces on the carts) and integrated by an
--    RK4 written here: every state at every 0.1 s to 1e-10;
-- 1b. n = 300 (evaluated skewed: chunk by chunk with lagging steps) and
--    n = 1100 (also scheduled from a window), both chain ends pushed (and a
--    middle crab), 0.2 s, crabs at both ends, around chunk edges and the
--    window's cut; in lane form (the default) and copy by copy
--    (lanes = false), the same bits;
-- 2. bench/flat_crabchain (the benchmark's flat reference) with --vary
--    (crab i at phi = 0.1 (i mod 7)) against lied with the same start angles
--    given per copy: crab 1's states at every step to 1e-9, so the
--    benchmark's ratios compare the same equations;
-- 3. bench/lanes_crabchain (the lane experiment) against flat_crabchain:
--    37 varied crabs, the weighted sum of the final states to 1e-9.
local T = require "tests.testing"
local lied = require "lied"

-- ---- 1. against the equations written here ------------------------------------
local P = { m1 = 1.0, m2 = 0.5, I2 = 0.05, rx = 0.5, ry = 1.5, g = 9.81, c = 100 }
local function rhs(x, n)
  local d = {}
  local a11, a22 = P.m1 + P.m2, P.m2 * (P.rx * P.rx + P.ry * P.ry) + P.I2
  for i = 0, n - 1 do
    local s, v, phi, w = x[4 * i + 1], x[4 * i + 2], x[4 * i + 3], x[4 * i + 4]
    local F = 0
    if i > 0 then F = F - P.c * (s - x[4 * (i - 1) + 1]) end
    if i < n - 1 then F = F + P.c * (x[4 * (i + 1) + 1] - s) end
    local sn, cs = math.sin(phi), math.cos(phi)
    local A, C = -P.rx * sn - P.ry * cs, P.rx * cs - P.ry * sn
    local a12 = P.m2 * A
    local r1, r2 = P.m2 * w * w * C + F, -P.m2 * P.g * C
    local det = a11 * a22 - a12 * a12
    d[4 * i + 1], d[4 * i + 2] = v, (r1 * a22 - a12 * r2) / det
    d[4 * i + 3], d[4 * i + 4] = w, (a11 * r2 - a12 * r1) / det
  end
  return d
end
local function rk4(x, h, n)
  local function axpy(a, y, k)
    local r = {}
    for q = 1, #y do r[q] = y[q] + a * k[q] end
    return r
  end
  local k1 = rhs(x, n)
  local k2 = rhs(axpy(h / 2, x, k1), n)
  local k3 = rhs(axpy(h / 2, x, k2), n)
  local k4 = rhs(axpy(h, x, k3), n)
  local r = {}
  for q = 1, #x do r[q] = x[q] + h / 6 * (k1[q] + 2 * k2[q] + 2 * k3[q] + k4[q]) end
  return r
end

local Chain = dofile("examples/crab_chain.lua")
local built = lied.build(Chain, { n = 3, ["crab[1].prismatic1.v"] = 1 })
T.eq(#built:vars("spring[*].f"), 2, "n = 3: two springs")
local res = built:run { solver = "rk4", dt = 1e-3, start = 0, stop = 2, interval = 0.1,
                        vars = "crab[*].*", progress = false }
T.eq(res:nrows(), 21, "rows every 0.1 s")
local x = {}
for q = 1, 12 do x[q] = 0 end
x[2] = 1
local names = { "prismatic1.s", "prismatic1.v", "revolute2.phi", "revolute2.w" }
local worst = 0
for row = 1, 21 do
  for i = 0, 2 do
    for q, nm in ipairs(names) do
      local got = T.column(res, string.format("crab[%d].%s", i + 1, nm))[row]
      local err = math.abs(got - x[4 * i + q])
      if err > worst then worst = err end
    end
  end
  if row < 21 then for _ = 1, 100 do x = rk4(x, 1e-3, 3) end end
end
print(string.format("n = 3: largest difference %.3g", worst))
T.check(worst <= 1e-10, string.format("crab_chain n = 3 against the equations: largest difference %.3g", worst))
T.check(math.abs(T.column(res, "crab[3].prismatic1.s")[21]) > 0.1, "the push reached crab 3 through the springs")

-- ---- 1b. chains long enough to be evaluated skewed (docs/architecture.md, ------
-- "Evaluation": chunk by chunk with lagging steps), the longer one scheduled
-- from a window (src/sched/window.c), against the same equations: crabs at
-- both ends, around chunk edges and around the window's cut
for _, case in ipairs {
  { n = 300, window = false, at = { 0, 1, 2, 31, 32, 33, 149, 298, 299 } },
  { n = 1100, window = true, at = { 0, 1, 2, 63, 95, 96, 97, 160, 549, 550, 551, 1003, 1098, 1099 } },
} do
  local n = case.n
  local sets = { n = n, ["crab[1].prismatic1.v"] = 1, [string.format("crab[%d].revolute2.w", n)] = -2 }
  if case.window then sets["crab[551].prismatic1.v"] = 0.5 end
  local b3 = lied.build(Chain, sets)
  local info = b3:info()
  T.check(info.skew_lag > 0 and info.skew_lag <= 64, "crab_chain n = " .. n .. " is evaluated skewed, lag " .. info.skew_lag)
  T.eq(info.chunked, false, "not independent copies")
  T.eq(info.window > 0, case.window, "n = " .. n .. ": scheduled from a window (" .. info.window .. " instances per array)")
  local r3, st3 = b3:run { solver = "rk4", dt = 1e-3, start = 0, stop = 0.2, interval = 0.2,
                           vars = "crab[*].*", progress = false, threads = 1 }
  -- waves in lane form (src/sched/lanering.c) against waves copy by copy:
  -- every recorded value the same bits
  T.check(st3.waves > 0 and st3.lanes, "n = " .. n .. ": waves in lane form (" .. tostring(st3.no_lanes) .. ")")
  local r3c, st3c = b3:run { solver = "rk4", dt = 1e-3, start = 0, stop = 0.2, interval = 0.2,
                             vars = "crab[*].*", progress = false, threads = 1, lanes = false }
  T.check(st3c.waves > 0 and not st3c.lanes and st3c.no_lanes == "not asked for", "lanes = false: waves copy by copy")
  local bits = true
  for i = 1, n do
    for _, nm in ipairs(names) do
      local col = string.format("crab[%d].%s", i, nm)
      local a, c = T.column(r3, col), T.column(r3c, col)
      for k = 1, #a do bits = bits and a[k] == c[k] end
    end
  end
  T.check(bits, "n = " .. n .. ": lanes and copy by copy, the same bits")
  local x3 = {}
  for q = 1, 4 * n do x3[q] = 0 end
  x3[2], x3[4 * n] = 1, -2
  if case.window then x3[4 * 550 + 2] = 0.5 end
  for _ = 1, 200 do x3 = rk4(x3, 1e-3, n) end
  local w3 = 0
  for _, i in ipairs(case.at) do
    for q, nm in ipairs(names) do
      local got = T.column(r3, string.format("crab[%d].%s", i + 1, nm))[2]
      w3 = math.max(w3, math.abs(got - x3[4 * i + q]))
    end
  end
  print(string.format("n = %d (skewed): largest difference %.3g", n, w3))
  T.check(w3 <= 1e-10, string.format("crab_chain n = %d against the equations: largest difference %.3g", n, w3))
end

-- ---- 2. against bench/flat_crabchain ------------------------------------------------
local dir = T.lied:match("^(.*)/[^/]*$") or "."
local flat = os.getenv("FLAT_CHAIN_BIN")
if not flat or flat == "" then flat = dir .. "/bench/flat_crabchain" end
local probe = io.open(flat, "r")
if T.check(probe ~= nil, "flat_crabchain binary " .. flat .. " exists (build the target, or set FLAT_CHAIN_BIN)") then
  probe:close()
  local n, steps = 9, 1000
  local fcsv, lcsv = os.tmpname() .. ".csv", os.tmpname() .. ".csv"
  local code, out, err = T.sh(string.format("%q %d %d 1e-3 --vary --csv %q", flat, n, steps, fcsv))
  T.eq(code, 0, "flat_crabchain exit status (" .. err .. ")")
  local sets = {}
  for i = 1, n do
    if (i - 1) % 7 ~= 0 then sets[#sets + 1] = string.format("--set 'crab[%d].revolute2.phi=%.17g'", i, 0.1 * ((i - 1) % 7)) end
  end
  code, out, err = T.sh(string.format(
    "%q run examples/crab_chain.lua --set n=%d %s --solver rk4 --dt 1e-3 --start 0 --stop 1 " ..
    "--interval 1e-3 --vars crab[1].prismatic1.s,crab[1].prismatic1.v,crab[1].revolute2.phi,crab[1].revolute2.w --out %q",
    T.lied, n, table.concat(sets, " "), lcsv))
  T.eq(code, 0, "lied run (" .. err .. ")")
  local function rows(p)
    local _, r = T.take_csv(p)
    return r or {}
  end
  local fr, lr = rows(fcsv), rows(lcsv)
  T.eq(#fr, steps + 1, "flat rows")
  T.eq(#lr, steps + 1, "lied rows")
  local w2 = 0
  for k = 1, math.min(#fr, #lr) do
    for q = 2, 5 do w2 = math.max(w2, math.abs(fr[k][q] - lr[k][q])) end
  end
  print(string.format("flat_crabchain: largest difference %.3g", w2))
  T.check(w2 <= 1e-9, string.format("crab 1 of 9 against flat_crabchain --vary: largest difference %.3g", w2))
end

-- ---- 3. bench/lanes_crabchain (the lane experiment of the chain) -------------------
-- 37 crabs (a full group of 32 lanes and a partial one: the halos cross a
-- group both ways) at varied angles: the sum of all final states, each
-- weighted by its crab's number, agrees with flat_crabchain's
local lanes = os.getenv("LANES_CHAIN_BIN")
if not lanes or lanes == "" then lanes = dir .. "/bench/lanes_crabchain" end
probe = io.open(lanes, "r")
if T.check(probe ~= nil, "lanes_crabchain binary " .. lanes .. " exists (build the target, or set LANES_CHAIN_BIN)") then
  probe:close()
  local sums = {}
  for _, prog in ipairs { flat, lanes } do
    local code, out, err = T.sh(string.format("%q 37 2000 1e-3 --vary", prog))
    T.eq(code, 0, prog .. " 37 crabs --vary (" .. err .. ")")
    sums[#sums + 1] = tonumber(out:match("state_sum (%S+)"))
  end
  T.check(sums[1] and sums[2] and math.abs(sums[1] - sums[2]) <= 1e-9 * math.abs(sums[1]),
    string.format("37 varied crabs: lanes_crabchain's state sum %.17g, flat_crabchain's %.17g", sums[2] or 0, sums[1] or 0))
end

T.done()
