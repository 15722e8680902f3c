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
              vars = "crab[*].*", fuse = opts.fuse }
  local res, stats = built:run(o)
  return res, stats
end

for _, solver in ipairs { "euler", "heun", "rk3", "rk4" } do
  local a, sa = run { solver = solver }
  local b, sb = run { solver = solver, fuse = false }
  T.eq(sa.rhs, sb.rhs, solver .. ": same number of evaluations")
  T.eq(a:nrows(), b:nrows(), solver .. ": same rows")
  local cols, diff, moved = 0, 0, 0
  for _, name in ipairs(a:names()) do
    local ca, cb = a:column(name), b:column(name)
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
local _, help = T.sh(string.format("%q --help", T.lied))
T.check(help:find("--no-fuse", 1, true), "--no-fuse in --help")

-- lied info says which models take fused steps
local _, info = T.sh(string.format("%q info examples/scaling.lua --set n=5", T.lied))
T.check(info:find("chunked   yes (independent copies: evaluated chunk by chunk; fixed-step " ..
  "explicit solvers take fused steps)", 1, true), "lied info: chunked, fused steps: " .. info)
local _, info1 = T.sh(string.format("%q info examples/cranecrab.lua", T.lied))
T.check(info1:find("chunked   no", 1, true), "lied info: one crab is not chunked")

-- the option must be a boolean
local built = lied.build(Scaling, { n = 2 })
T.raises(function() built:run { stop = 0.1, fuse = 1 } end,
  "run: option fuse must be a boolean, got number", "fuse = 1")
T.done()
