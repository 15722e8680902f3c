-- coolant_check.lua: runs coolant.lua and checks it against a calculation by hand of
-- the same correlations (tfext.c): the pipe's steady outlet, where the heat it loses
-- equals the enthalpy the flow leaves behind, and the cooler's outlet h - Q/m.
--   LIED_PATH=<build dir> lied coolant_check.lua       (prints "coolant: ok")
local lied = require "lied"
local m = lied.build(dofile "coolant.lua")
local _, _, err = m:run { stop = 600, solver = "rk4", dt = 0.05 }
assert(not err, err)
local function h(T) local th = T - 273.15; return 3750 * th + 1.25 * th * th end
-- 0.1 (h(353.15) - h(T)) = 40 (T - 293.15): bisection on T
local lo, hi = 293.15, 353.15
for _ = 1, 200 do
  local mid = 0.5 * (lo + hi)
  if 0.1 * (h(353.15) - h(mid)) > 40 * (mid - 293.15) then lo = mid else hi = mid end
end
local T_pipe = 0.5 * (lo + hi)
assert(math.abs(m:value("pipe.T") - T_pipe) < 1e-6, "pipe outlet " .. m:value("pipe.T") .. " vs " .. T_pipe)
assert(math.abs(m:value("pipe.Q_loss") - 40 * (T_pipe - 293.15)) < 1e-4, "pipe heat loss")
-- the cooler takes 3 kW: h_out = h(T_pipe) - 3000/0.1, T from h by the correlation
local hc = h(T_pipe) - 3000 / 0.1
local T_cool = 273.15 + (-3750 + math.sqrt(3750 ^ 2 + 5 * hc)) / 2.5
assert(math.abs(m:value("cooler.T") - T_cool) < 1e-6, "cooler outlet " .. m:value("cooler.T") .. " vs " .. T_cool)
print(string.format("coolant: ok (pipe %.6f K, cooler %.6f K)", T_pipe, T_cool))
