-- Linear sections of size 1 to 50: mass-spring chains against a hand ODE.
local lied = require "lied"
local T = require "tests.testing"
local C = require "tests.models.chain"

for _, n in ipairs { 1, 2, 3, 10, 50 } do
  local k, m, s0, d = {}, {}, {}, {}
  for i = 1, n do
    k[i] = 10 + i
    m[i] = 1 + 0.1 * i
    s0[i] = (i % 3 == 0) and 0.2 or -0.1 * i / n
    d[i] = 0.05 * (i % 2)
  end
  local model = C.chain(n, k, m, s0, d)
  local built = lied.build(model)
  local info = built:info()
  T.eq(info.sections, 1, n .. "-chain: one section")
  T.eq(info.max_section, n, n .. "-chain: section size")
  T.eq(info.section_sizes[n], 1, n .. "-chain: histogram")
  T.eq(info.states, 2 * n, n .. "-chain: states")
  T.eq(info.tearing_pairs, n, n .. "-chain: tearing pairs")
  T.eq(info.constant_sections, 1, n .. "-chain: constant matrix")
  local h, stop = 0.01, 2
  local names = {}
  for i = 1, n do names[#names + 1] = "j" .. i .. ".flange_b.s" end
  local res, stats = built:run { stop = stop, dt = h, interval = 0.1, solver = "rk4",
                                 vars = table.concat(names, ",") }
  T.eq(stats.factorisations, 1, n .. "-chain: factorised once")
  -- reference
  local y = {}
  local acc = 0
  for i = 1, n do acc = acc + s0[i]; y[i] = acc; y[n + i] = 0 end
  local f = C.chain_rhs(n, k, m, d)
  local t = 0
  local refs = { [0] = { table.unpack(y) } }
  for step = 1, math.floor(stop / h + 0.5) do
    y = C.rk4(f, t, y, h)
    t = step * h
    if step % 10 == 0 then refs[step // 10] = { table.unpack(y) } end
  end
  local maxerr = 0
  for i = 1, n do
    local col = T.column(res, names[i])
    for r = 1, #col do
      local e = math.abs(col[r] - refs[r - 1][i])
      if e > maxerr then maxerr = e end
    end
  end
  T.check(maxerr < 1e-10, string.format("%d-chain: max deviation from the hand ODE %.3g", n, maxerr))
end

T.done()
