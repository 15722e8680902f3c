-- examples/clutch.lua's energy closes (docs/rotational.md, "Example"): at
-- every output the drive's power less the two dampers' and the clutch's
-- losses is what the three inertias' kinetic energy gains, and over the run
-- (slip, stick, slip again: two state events) the integrated powers match
-- the kinetic energy's change, both to 1e-6 of the power passed through;
-- each loss is its law, written out here: d w^2 for the dampers, |tau w_rel|
-- for the clutch, the drive tau w.
local T = require "tests.testing"
local A = require "tests.energy_account"

local r = A.run("examples/clutch.lua", {
  shafts = { { "engine", 0.3 }, { "input", 0.02 }, { "wheel", 4 } },
  inputs = { "drive.P" }, outputs = { "friction.P_loss", "load.P_loss", "clutch.P_loss" },
  extra = { "drive.torque", "clutch.tau", "clutch.w_rel", "clutch.mode" } },
  { stop = 6, solver = "dopri45", tol = 1e-10, interval = 0.001 })
print(string.format("clutch: power balance worst %.2e, energy over 6 s %.2e", r.worst, r.integ))
T.check(r.worst < 1e-6, "clutch: the power balance closes at every output: " .. r.worst)
T.check(r.integ < 1e-6, "clutch: the energy closes over the run: " .. r.integ)

local res = r.res
local function c(v) return res:column(v) end
local we, ww = c("engine.w"), c("wheel.w")
local worst, modes = 0, {}
for i = 1, res:nrows() do
  local P = c("drive.torque")[i] * we[i]
  local e = math.max(math.abs(c("drive.P")[i] - P) / math.abs(P),
    math.abs(c("friction.P_loss")[i] - 0.1 * we[i] ^ 2) / (0.1 * we[i] ^ 2),
    math.abs(c("load.P_loss")[i] - 1.2 * ww[i] ^ 2) / math.max(1.2 * ww[i] ^ 2, 1e-300),
    math.abs(c("clutch.P_loss")[i] - math.abs(c("clutch.tau")[i] * c("clutch.w_rel")[i])) / math.abs(P))
  worst = math.max(worst, e)
  modes[c("clutch.mode")[i]] = true
end
print(string.format("clutch: the losses against their laws %.2e", worst))
T.check(worst < 1e-12, "clutch: drive power and losses are their laws: " .. worst)
local n = 0
for _ in pairs(modes) do n = n + 1 end
T.check(n >= 2, "clutch: the run slips and sticks")
os.exit(T.done())
