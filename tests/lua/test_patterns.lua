-- Connection patterns (lied.each): one declaration for a range of indices,
-- resolved in C. The same model as the explicit Lua loop (same bits, same
-- schedule), index arithmetic, strides, downward steps, wrap-around, nested
-- indices of a 2-D grid, port aliases; connections declared twice through
-- patterns are found; errors name the declaration's line and the point.
local lied = require "lied"
local T = require "tests.testing"
local mech = require "lied.mechanics"
local CraneCrab = require "cranecrab"

-- ---- the chain: a pattern and the explicit loop give the same model ------------
local function chain(n, pattern)
  local connect = {}
  if pattern then
    connect[1] = lied.each(1, n - 1,
      { "crab[i].prismatic1.frame_b", "spring[i].frame_a" },
      { "crab[i+1].prismatic1.frame_b", "spring[i].frame_b" })
  else
    for i = 1, n - 1 do
      connect[#connect + 1] = { string.format("crab[%d].prismatic1.frame_b", i), string.format("spring[%d].frame_a", i) }
      connect[#connect + 1] = { string.format("crab[%d].prismatic1.frame_b", i + 1), string.format("spring[%d].frame_b", i) }
    end
  end
  return lied.model "Chain" {
    crab = lied.array(CraneCrab, n, { ["revolute2.phi"] = function(i) return 0.05 * (i % 5) end }),
    spring = lied.array(mech.Spring { c = 100 }, n - 1),
    connect = connect,
  }
end
local bp, bl = lied.build(chain(40, true)), lied.build(chain(40, false))
local ip, il = bp:info(), bl:info()
for _, k in ipairs { "components", "blocks", "states", "sections", "section_batches", "dynamic_blocks" } do
  T.eq(ip[k], il[k], "pattern and loop: " .. k)
end
local opts = { solver = "rk4", stop = 0.5, dt = 1e-3, interval = 0.05, progress = false, vars = "crab[*].prismatic1.s" }
local rp, rl = bp:run(opts), bl:run(opts)
local same = true
for i = 1, 40 do
  local a, b = T.column(rp, string.format("crab[%d].prismatic1.s", i)), T.column(rl, string.format("crab[%d].prismatic1.s", i))
  for k = 1, #a do same = same and a[k] == b[k] end
end
T.check(same, "pattern and loop: the same bits")
T.check(T.column(rp, "crab[40].prismatic1.s")[11] ~= 0, "the chain moves")

-- ---- carts on a line: which cart each spring joins, read from its length ---------
local Cart = lied.model "Cart" {
  fixed = mech.Fixed {},
  p = mech.Prismatic { e = { 1, 0 } },
  body = mech.Body { m = 1, I = 0.1 },
  connect = { { "fixed.frame_b", "p.frame_a" }, { "p.frame_b", "body.frame_a" } },
  ports = { cart = "p.frame_b" },
}
-- cart k sits at x = k^2, so a spring's length names the two carts it joins
local function carts(n)
  return lied.array(Cart, n, { ["p.s"] = function(k) return k * k end })
end
local function lengths(model, n)
  local b = lied.build(model)
  b:derivatives()
  local r = {}
  for i = 1, n do r[i] = b:value(string.format("spring[%d].s", i)) end
  return r
end
local function joins(a, b) return math.abs(b * b - a * a) end

-- wrap-around: a ring of 5 carts and 5 springs, spring i from cart i to i+1
local Ring = lied.model "Ring" {
  cart = carts(5),
  spring = lied.array(mech.Spring {}, 5),
  connect = { lied.each({ i = { 1, 5 }, wrap = true },
    { "cart[i].cart", "spring[i].frame_a" }, { "cart[i+1].cart", "spring[i].frame_b" }) },
}
local L = lengths(Ring, 5)
for i = 1, 5 do T.eq(L[i], joins(i, i % 5 + 1), "ring spring " .. i) end

-- strides, downward steps and arithmetic: spring j joins carts 2j-1 and 2j+1
local Odd = lied.model "Odd" {
  cart = carts(7),
  spring = lied.array(mech.Spring {}, 3),
  pad = lied.array(mech.Spring {}, 4),
  connect = {
    lied.each({ j = { 3, 1, -1 } }, { "cart[2*j-1].cart", "spring[j].frame_a" }, { "cart[2*j+1].cart", "spring[j].frame_b" }),
    -- the even carts and cart 7 again, by stride 2: pad k joins cart 2k and cart 7
    lied.each({ k = { 2, 8, 2 } }, { "cart[k].cart", "pad[k/2].frame_a" }),
  },
}
T.raises(function() lied.build(Odd) end, { "bad index expression [k/2]" }, "division is not an index expression")
Odd = lied.model "Odd" {
  cart = carts(7),
  spring = lied.array(mech.Spring {}, 3),
  pad = lied.array(mech.Spring {}, 3),
  connect = {
    lied.each({ j = { 3, 1, -1 } }, { "cart[2*j-1].cart", "spring[j].frame_a" }, { "cart[2*j+1].cart", "spring[j].frame_b" }),
    lied.each({ k = { 2, 6, 2 } }, { "cart[k].cart", "pad[k-1-k+k/1].frame_a" }),
  },
}
T.raises(function() lied.build(Odd) end, { "bad index expression" }, "k/1 is no expression either")
local Stride = lied.model "Stride" {
  cart = carts(7),
  spring = lied.array(mech.Spring {}, 3),
  connect = {
    lied.each({ j = { 3, 1, -1 } }, { "cart[2*j-1].cart", "spring[j].frame_a" }, { "cart[2*j+1].cart", "spring[j].frame_b" }),
  },
}
L = lengths(Stride, 3)
for j = 1, 3 do T.eq(L[j], joins(2 * j - 1, 2 * j + 1), "stride spring " .. j) end

-- a 2-D grid: row[i].cell[j] joined to its right neighbour (h) and to the
-- cell below (v), nested indices, loops over i and j
local Row = lied.model "Row" {
  cell = lied.array(Cart, 3),
}
local Grid = lied.model "Grid" {
  parameters = { m = 2 },
  row = lied.array(Row, lied.param "m", { ["cell.p.s"] = function(i, j) return 10 * i + j * j end }),
  h = lied.array(lied.model "HRow" { s = lied.array(mech.Spring {}, 2) }, lied.param "m"),
  v = lied.array(mech.Spring {}, 3),
  connect = {
    lied.each({ i = { 1, function(p) return p.m end }, j = { 1, 2 } },
      { "row[i].cell[j].cart", "h[i].s[j].frame_a" }, { "row[i].cell[j+1].cart", "h[i].s[j].frame_b" }),
    lied.each({ j = { 1, 3 } }, { "row[1].cell[j].cart", "v[j].frame_a" }, { "row[2].cell[j].cart", "v[j].frame_b" }),
  },
}
local bg = lied.build(Grid)
bg:derivatives()
local function x(i, j) return 10 * i + j * j end
for i = 1, 2 do
  for j = 1, 2 do
    T.eq(bg:value(string.format("h[%d].s[%d].s", i, j)), math.abs(x(i, j + 1) - x(i, j)), string.format("grid h[%d][%d]", i, j))
  end
end
for j = 1, 3 do T.eq(bg:value(string.format("v[%d].s", j)), math.abs(x(2, j) - x(1, j)), "grid v " .. j) end

-- an empty range connects nothing (a chain of one crab)
T.eq(lied.build(chain(1, true)):info().components, 6, "chain of one: no springs, no connections")

-- ---- connections declared twice ------------------------------------------------------
T.raises(function()
  lied.build(lied.model "Twice" {
    cart = carts(3),
    spring = lied.array(mech.Spring {}, 2),
    connect = {
      { "cart[2].cart", "spring[2].frame_a" },
      lied.each(1, 2, { "cart[i].cart", "spring[i].frame_a" }, { "cart[i+1].cart", "spring[i].frame_b" }),
    },
  })
end, { "test_patterns.lua:", "connection declared twice: connect {\"cart[i].cart\", \"spring[i].frame_a\"} in Twice joins cart[2].p.frame_b and spring[2].frame_a, already joined by connect {\"cart[2].cart\", \"spring[2].frame_a\"}" },
  "a pattern repeating an explicit connection")
T.raises(function()
  lied.build(lied.model "Twice2" {
    cart = carts(3),
    spring = lied.array(mech.Spring {}, 3),
    connect = {
      lied.each({ i = { 1, 4 }, wrap = true }, { "cart[i].cart", "spring[i].frame_a" }),
      lied.each({ i = { 1, 3 } }, { "cart[i].cart", "spring[i].frame_b" }),
    },
  })
end, { "connection declared twice", "joins cart[1].p.frame_b and spring[1].frame_a",
       "already joined by connect {\"cart[i].cart\", \"spring[i].frame_a\"} (at i = 1)" },
  "a pattern repeating itself through wrap-around")

-- a pattern before a pair: the list keeps its order, the pair is the second
T.raises(function()
  lied.build(lied.model "Twice3" {
    cart = carts(3),
    spring = lied.array(mech.Spring {}, 2),
    connect = {
      lied.each(1, 2, { "cart[i].cart", "spring[i].frame_a" }, { "cart[i+1].cart", "spring[i].frame_b" }),
      { "cart[2].cart", "spring[2].frame_a" },
    },
  })
end, { "connection declared twice: connect {\"cart[2].cart\", \"spring[2].frame_a\"} in Twice3",
       "already joined by connect {\"cart[i].cart\", \"spring[i].frame_a\"} (at i = 2)" },
  "a pair repeating a pattern declared before it")

-- ---- errors ------------------------------------------------------------------------------
local function grid_with(conn)
  return lied.model "E" { cart = carts(3), spring = lied.array(mech.Spring {}, 3), connect = { conn } }
end
T.raises(function()
  lied.build(grid_with(lied.each(1, 3, { "cart[i].cart", "spring[i].frame_a" }, { "cart[i+1].cart", "spring[i].frame_b" })))
end, { "test_patterns.lua:", "in E, connect pattern {\"cart[i+1].cart\", \"spring[i].frame_b\"} at i = 3: index [i+1] = 4 is out of range in 'cart[i+1].cart' (3 copies; wrap = true makes the indices periodic)" },
  "index out of range names the line and the point")
T.raises(function() lied.build(grid_with(lied.each(1, 3, { "cart[i+x].cart", "spring[i].frame_a" }))) end,
  { "test_patterns.lua:", "'cart[i+x].cart': unknown index variable in [i+x] (loop variables: i)" }, "unknown variable")
T.raises(function() lied.build(grid_with(lied.each(1, 3, { "cart[i+].cart", "spring[i].frame_a" }))) end,
  { "'cart[i+].cart': bad index expression [i+]" }, "bad expression")
T.raises(function() lied.build(grid_with(lied.each(1, 3, { "cart[i].cart", "spring[i].frame_x" }))) end,
  { "connect pattern {\"cart[i].cart\", \"spring[i].frame_x\"}", "Spring has no port 'frame_x'" }, "a misspelt port")
T.raises(function() lied.build(grid_with(lied.each(1, 3, { "cart[i].cart", "sprung[i].frame_a" }))) end,
  { "no component 'sprung' (did you mean 'spring'?)" }, "a misspelt component")
T.raises(function() lied.build(grid_with(lied.each({ i = { 1, 3, 0 } }, { "cart[i].cart", "spring[i].frame_a" }))) end,
  { "test_patterns.lua:", "loop i: the step must not be 0" }, "zero step")
T.raises(function() lied.build(grid_with(lied.each(1, 2.5, { "cart[i].cart", "spring[i].frame_a" }))) end,
  { "lied.each: loop i: last must be a whole number, got 2.5" }, "a bound that is not whole")
T.raises(function() lied.each(1, "3", { "a[i].p", "b[i].p" }) end,
  { "lied.each: last must be a number, lied.param or a function of the parameters, got the string \"3\"" }, "a string bound")
T.raises(function() lied.each(1, 3) end, { "lied.each: no connection pairs" }, "no pairs")
T.raises(function() lied.each(1, 3, { "a[i].p" }) end, { "lied.each: pair 1 must be" }, "a pair of one")
T.raises(function() lied.each({ wrap = true }, { "a[i].p", "b[i].p" }) end, { "no loop variable" }, "no variable")
T.raises(function() lied.each({ i = 3 }, { "a[i].p", "b[i].p" }) end, { "loop i must be {first, last [, step]}" }, "bad loop")
T.raises(function() lied.each({ i = { 1, 2 }, wrap = 1 }, { "a[i].p", "b[i].p" }) end, { "wrap must be a boolean" }, "bad wrap")
-- an index expression in a port's name: resolved at i = 1 and reported
local tf = require "lied.thermofluid"
local sig = require "lied.signals"
T.raises(function()
  lied.build(lied.model "J" {
    src = lied.array(sig.Constant { k = 1 }, 2),
    add = sig.Add {},
    connect = { lied.each(1, 2, { "src[i].y", "add.u[i]" }) },
  })
end, { "in J, connect pattern {\"src[i].y\", \"add.u[i]\"}: Add has no port 'u[1]'" }, "an expression in a port's name")
T.check(tf ~= nil, "thermofluid library loads")

T.done()
