-- Fused steps: fixed-step explicit solvers on a model of independent copies
-- (n crane crabs) step chunk by chunk of copies; `fuse = false` (CLI
-- --no-fuse) steps over the whole state vector. Both must give the same bits,
-- through the Lua API and the CLI; the option is checked.
local lied = require "lied"
local T = require "tests.testing"

-- The scaling model with 40 crabs (a partial last chunk), every variable at
-- every output point. The copies share their parameters, so they move alike:
-- tests/unit/test_fused.c checks distinct copies and the error path.
local Scaling = dofile("examples/scaling.lua")

local function run(opts)
  local built = lied.build(Scaling, { n = 40, ["crab.revolute2.phi"] = 0.3,
                                      ["crab.prismatic1.v"] = -0.2 })
  T.check(built:info().chunked, "40 crabs are chunked")
  local o = { solver = opts.solver, stop = 0.5, dt = 1e-3, interval = 0.01, progress = false,
              vars = "crab[*].*", fuse = opts.fuse, lanes = opts.lanes }
  local res, stats = built:run(o)
  return res, stats
end

-- fused steps in lane form (the default: every block of the crab has one),
-- copy by copy (lanes = false) and whole-vector steps (fuse = false)
local _, s1 = run { solver = "rk4" }
T.check(s1.fused and s1.lanes and s1.no_lanes == nil, "fused steps in lane form")
local _, s2 = run { solver = "rk4", lanes = false }
T.check(s2.fused and not s2.lanes, "lanes = false: copy by copy")
T.eq(s2.no_lanes, "not asked for", "lanes = false: why")
local _, s3 = run { solver = "rk4", fuse = false }
T.check(not s3.fused and not s3.lanes, "fuse = false: neither")

for _, solver in ipairs { "euler", "heun", "rk3", "rk4" } do
  local a, sa = run { solver = solver }
  local b, sb = run { solver = solver, fuse = false }
  local c = run { solver = solver, lanes = false }
  local dc = 0
  for _, name in ipairs(T.names(a)) do
    local ca, cc = T.column(a, name), T.column(c, name)
    for i = 1, #ca do
      if ca[i] ~= cc[i] then dc = dc + 1 end
    end
  end
  T.eq(dc, 0, solver .. ": lane form and copy by copy give the same bits")
  T.eq(sa.rhs, sb.rhs, solver .. ": same number of evaluations")
  T.eq(a:nrows(), b:nrows(), solver .. ": same rows")
  local cols, diff, moved = 0, 0, 0
  for _, name in ipairs(T.names(a)) do
    local ca, cb = T.column(a, name), T.column(b, name)
    cols = cols + 1
    for i = 1, #ca do
      if ca[i] ~= cb[i] then diff = diff + 1 end
    end
    if ca[#ca] ~= ca[1] then moved = moved + 1 end
  end
  T.check(cols > 40 * 4, solver .. ": every crab's variables recorded (" .. cols .. ")")
  T.eq(diff, 0, solver .. ": fused and whole-vector steps give the same bits")
  T.check(moved > 40, solver .. ": the crabs moved")
end

-- CLI: --no-fuse gives the same CSV, and is in --help
local f1, f2 = os.tmpname() .. ".csv", os.tmpname() .. ".csv"
local base = string.format("%q run examples/scaling.lua --set n=33 --set crab.revolute2.phi=1 " ..
  "--stop 0.2 --dt 1e-3 --vars 'crab[*].*' --out ", T.lied)
local c1 = T.sh(base .. f1)
local c2 = T.sh(base .. f2 .. " --no-fuse")
T.eq(c1, 0, "lied run exit status")
T.eq(c2, 0, "lied run --no-fuse exit status")
local function slurp(p) local f = assert(io.open(p)); local s = f:read("a"); f:close(); os.remove(p); return s end
local s1, s2 = slurp(f1), slurp(f2)
T.check(#s1 > 10000, "CSV written (" .. #s1 .. " bytes)")
T.check(s1 == s2, "--no-fuse: the same CSV, byte for byte")
local f3 = os.tmpname() .. ".csv"
T.eq(T.sh(base .. f3 .. " --no-lanes"), 0, "lied run --no-lanes exit status")
T.check(slurp(f3) == s1, "--no-lanes: the same CSV, byte for byte")
local _, help = T.sh(string.format("%q --help", T.lied))
T.check(help:find("--no-fuse", 1, true), "--no-fuse in --help")
T.check(help:find("--no-lanes", 1, true), "--no-lanes in --help")
-- --stats says how the steps were taken
local _, _, err1 = T.sh(string.format("%q run examples/scaling.lua --set n=40 --stop 0.01 " ..
  "--out none --stats", T.lied))
T.check(err1:find("fused steps: chunks of 32 copies, lane form yes", 1, true), "--stats: " .. err1)
local _, _, err2 = T.sh(string.format("%q run examples/scaling.lua --set n=40 --stop 0.01 " ..
  "--out none --stats --no-lanes", T.lied))
T.check(err2:find("lane form no (not asked for)", 1, true), "--stats --no-lanes: " .. err2)

-- lied info says which models take fused steps
local _, info = T.sh(string.format("%q info examples/scaling.lua --set n=5", T.lied))
T.check(info:find("chunked   yes (independent copies: evaluated chunk by chunk; fixed-step " ..
  "explicit solvers take fused steps)", 1, true), "lied info: chunked, fused steps: " .. info)
T.check(info:find("lanes     yes (fused steps evaluate 32 copies per block call, in lane form)", 1,
  true), "lied info: lanes: " .. info)
local _, info1 = T.sh(string.format("%q info examples/cranecrab.lua", T.lied))
T.check(info1:find("chunked   no", 1, true), "lied info: one crab is not chunked")

-- a block without a lane form (the thermofluid library has none yet): copy by
-- copy, and the stats and info say which block
local Vessels = dofile("examples/vessels.lua")
local Many = lied.model "Many" { parameters = { n = 1 }, v = lied.array(Vessels, lied.param "n") }
local many = lied.build(Many, { n = 3 })
local si = many:info()
T.check(si.chunked and si.lanes == false, "info: chunked, no lanes")
T.eq(si.no_lanes, "block state of TankOut (v[1].t1) has no lane form", "info: why not")
local _, sd = many:run { stop = 0.1, dt = 0.01, out = "none", memory = false, solver = "rk4" }
T.check(sd.fused and not sd.lanes, "vessels in copies: fused, not in lane form")
T.eq(sd.no_lanes, "block state of TankOut (v[1].t1) has no lane form", "stats: why not")

-- the option must be a boolean
local built = lied.build(Scaling, { n = 2 })
T.raises(function() built:run { stop = 0.1, fuse = 1 } end,
  "run: option fuse must be a boolean, got number", "fuse = 1")
T.raises(function() built:run { stop = 0.1, lanes = "yes" } end,
  "run: option lanes must be a boolean, got string", "lanes = 'yes'")
T.done()
