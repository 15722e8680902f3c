-- Validation of the static signal blocks (docs/signals.md): Gain, Add with
-- weights, Product, Division by a signal, Min, Max, Limiter, fed by
-- constants and a Sine, against the arithmetic done here.
local lied = require "lied"
local S = require "lied.signals"
local T = require "tests.testing"
local H = require "tests.models.signals"
local at = H.at

-- ---- static blocks ----------------------------------------------------------------
do
  local M = lied.model "Math" {
    a = S.Constant { k = 3 }, b = S.Constant { k = -2 }, s = S.Sine { amplitude = 1, w = 1, offset = 2 },
    gain = S.Gain { k = 2.5 },
    add = S.Add { n = 3, k1 = 1, k2 = -0.5, k3 = 4 },
    add2 = S.Add {},
    prod = S.Product { n = 3 },
    div = S.Division {},
    mn = S.Min { n = 3 }, mx = S.Max {},
    lim = S.Limiter { uMin = -1, uMax = 2.5 }, limlo = S.Limiter { uMin = -1, uMax = 2.5 },
    limin = S.Limiter { uMin = -1, uMax = 2.5 },
    connect = {
      { "a.y", "gain.u" },
      { "a.y", "add.u1" }, { "b.y", "add.u2" }, { "s.y", "add.u3" },
      { "a.y", "add2.u1" }, { "b.y", "add2.u2" },
      { "a.y", "prod.u1" }, { "b.y", "prod.u2" }, { "s.y", "prod.u3" },
      { "a.y", "div.u1" }, { "s.y", "div.u2" },
      { "a.y", "mn.u1" }, { "b.y", "mn.u2" }, { "s.y", "mn.u3" },
      { "b.y", "mx.u1" }, { "s.y", "mx.u2" },
      { "a.y", "lim.u" }, { "b.y", "limlo.u" }, { "s.y", "limin.u" },
    },
  }
  local names = { "gain", "add", "add2", "prod", "div", "mn", "mx", "lim", "limlo", "limin" }
  for _, t in ipairs { 0, 1, 2.5, 4 } do
    local v, s = at(M, t, names), 2 + math.sin(t)
    local tag = string.format(" at t = %g", t)
    T.eq(v.gain, 7.5, "Gain" .. tag)
    T.near(v.add, 3 + 1 + 4 * s, 1e-14, "Add with weights" .. tag)
    T.eq(v.add2, 1, "Add default: u1 + u2" .. tag)
    T.near(v.prod, -6 * s, 1e-14, "Product of three" .. tag)
    T.near(v.div, 3 / s, 1e-15, "Division by a signal" .. tag)
    T.eq(v.mn, -2, "Min" .. tag)
    T.near(v.mx, s, 1e-15, "Max" .. tag)
    T.eq(v.lim, 2.5, "Limiter at uMax" .. tag)
    T.eq(v.limlo, -1, "Limiter at uMin" .. tag)
    T.near(v.limin, math.min(s, 2.5), 1e-15, "Limiter" .. tag)
  end
end

T.done()
