-- bench/refrig_circuits.lua [N] [REPEAT] - lied.refrigeration's components in lane form
-- against copy by copy: N copies (default 256) of a closed circuit (Compressor, Receiver,
-- ExpansionValve with events = 0, Accumulator; docs/refrigeration.md, "Lane forms"), each
-- with its own condenser duty, 1 s of rk4 at dt = 1e-3 (4,000 evaluations), one thread,
-- nothing recorded but one column; REPEAT runs (default 5) each with lanes on and off,
-- alternating; prints the CPU time per run and ns per circuit-evaluation, and the medians.
--   build/lied bench/refrig_circuits.lua 256 5
local lied = require "lied"
local tf = require "lied.thermofluid"
local rf = require "lied.refrigeration"
local S = require "lied.signals"
local R = tf.R134a
local n = tonumber(arg and arg[1]) or 256
local repeat_n = tonumber(arg and arg[2]) or 5
local Circuit = lied.model "Circuit" {
  parameters = { Qc = -2800 },
  comp = rf.Compressor { V_d = 2e-5, k = 1e8, medium = R },
  w = S.Constant { k = 300 },
  rcv = rf.Receiver { V = 2e-3, p0 = 1e6, level0 = 0.5, Q = lied.param "Qc", L = 1e6, m_flow = 0.0126, medium = R },
  valve = rf.ExpansionValve { A = 6.3e-7, events = 0, medium = R },
  opening = S.Constant { k = 0.5 },
  acc = rf.Accumulator { V = 5e-3, p0 = 3e5, level0 = 0.2, Q = 1800, L = 1e6, m_flow = 0.0126, medium = R },
  connect = { { "acc.outlet", "comp.inlet" }, { "comp.outlet", "rcv.inlet" }, { "rcv.outlet", "valve.inlet" },
              { "valve.outlet", "acc.inlet" }, { "w.y", "comp.speed" }, { "opening.y", "valve.opening" } },
}
local Circuits = lied.model "Circuits" {
  c = lied.array(Circuit, n, { Qc = function(i) return -2000 - 1000 * i / n end }),
}
local built = lied.build(Circuits)
local evals = 4000
local t = { [true] = {}, [false] = {} }
print(string.format("%d circuits (R134a), 1 s of rk4 at dt = 1e-3 (%d evaluations), one thread", n, evals))
print(string.format("%4s %6s %10s %22s", "run", "lanes", "cpu [s]", "ns / circuit-eval"))
for i = 1, repeat_n do
  for _, lanes in ipairs { true, false } do
    local c0 = os.clock()
    built:run { stop = 1, solver = "rk4", dt = 1e-3, interval = 1, lanes = lanes, threads = 1,
                progress = false, vars = "c[1].rcv.p" }
    local cpu = os.clock() - c0
    t[lanes][i] = cpu
    print(string.format("%4d %6s %10.4f %22.0f", i, lanes and "on" or "off", cpu, cpu / (n * evals) * 1e9))
  end
end
local function median(v)
  local s = {}
  for i, x in ipairs(v) do s[i] = x end
  table.sort(s)
  return s[(#s + 1) // 2]
end
for _, lanes in ipairs { true, false } do
  local m = median(t[lanes])
  print(string.format("%4s %6s %10.4f %22.0f", "med", lanes and "on" or "off", m, m / (n * evals) * 1e9))
end
