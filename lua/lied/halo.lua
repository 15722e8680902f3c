-- lied.halo: the slicing of coupled arrays for lied run under mpirun
-- (docs/distributed.md, "Coupled arrays across ranks"). lied.flatten calls
-- it when the model under mpirun is not an ensemble: every child at the top
-- level must be an array, linked by connection patterns (lied.each) whose
-- top-level indices move by a few copies. Rank r of P owns the copies
-- a .. b (a = floor(N r / P) + 1, b = floor(N (r + 1) / P), N the longest
-- array) of every array and instantiates lo .. b + g (lo = max(1, a - g)):
-- g ghost copies on each side, whose states the halo exchange
-- (src/dist/halo_mpi.c) overwrites with their owners' before every
-- evaluation. The connections are those of the patterns with every end in
-- that range, with local indices (the model takes the global ones once
-- built: src/binding/lua_build.c).
local M = {}

local function fail(fmt, ...) error(string.format(fmt, ...), 0) end


-- "crab[i+1].prismatic1.frame_b" -> "crab", "i+1", ".prismatic1.frame_b";
-- nil when the path has no index at its first component.
local function top_of(path)
  return path:match("^([%a_][%w_]*)%[([^%]]*)%](.*)$")
end

-- An index expression ("i+1", "2*i-1", "7") as {var = coefficient}, constant;
-- nil for what the pattern syntax does not take (lied.each reports it).
local function affine(expr)
  local co, c = {}, 0
  local s = expr:gsub("%s", "")
  if s == "" then return nil end
  if not s:match("^[+-]") then s = "+" .. s end
  for sign, term in s:gmatch("([+-])([^+-]+)") do
    local sg = sign == "-" and -1 or 1
    local k, v = term:match("^(%d+)%*([%a_][%w_]*)$")
    if not k then v, k = term:match("^([%a_][%w_]*)%*(%d+)$") end
    if not k then
      if term:match("^%d+$") then
        c = c + sg * tonumber(term)
        goto next
      end
      v, k = term:match("^([%a_][%w_]*)$"), "1"
      if not v then return nil end
    end
    co[v] = (co[v] or 0) + sg * tonumber(k)
    ::next::
  end
  for v, k in pairs(co) do if k == 0 then co[v] = nil end end
  return co, c
end

-- Check that the model can be split as coupled arrays (every child at the
-- top level an array); errors name what cannot.
function M.check(model, slice, Array, sorted_keys)
  for _, cname in ipairs(sorted_keys(model.children)) do
    if getmetatable(model.children[cname]) ~= Array then
      fail("model %s: '%s' at the top level is not an array: under mpirun with %d processes "
        .. "lied run splits ensembles and coupled arrays (every child at the top level an array, "
        .. "linked by lied.each patterns: docs/distributed.md); a component outside the arrays "
        .. "(a boundary, or one that every copy reads) cannot be split; run it with one process",
        model.name, cname, slice.size)
    end
  end
end

-- The loop variable and offset of a top-level index, for the halo width and
-- the bounds: var (or nil for a constant), constant. Errors for indices the
-- split cannot take.
local function index_of(name, expr, where, mname)
  local co, c = affine(expr)
  if not co then return nil end -- the pattern's own error follows in C
  local var, n = nil, 0
  for v, k in pairs(co) do
    n = n + 1
    var = v
    if k ~= 1 then
      fail("%s%s: %s[%s]: under mpirun coupled arrays are split by their top-level index, "
        .. "which must be a loop variable plus a constant (%s[i+1]); this index steps by %d",
        where, mname, name, expr, name, k)
    end
  end
  if n > 1 then
    fail("%s%s: %s[%s]: under mpirun coupled arrays are split by their top-level index, "
      .. "which must use one loop variable (%s[i+1]); write a grid as an array of rows "
      .. "(row[i].cell[j]: docs/distributed.md)", where, mname, name, expr, name)
  end
  return var, c
end

-- The halo width: the largest distance between the two ends' top-level
-- indices of a connection (a pattern's pair, or a plain connection between
-- two copies), plus one layer (the outermost ghosts miss connections to
-- copies beyond them; no owned copy reads them). Errors for links whose
-- ends do not move together (copy 1 linked to every copy).
local function width(connect, mname)
  local d = 0
  for _, c in ipairs(connect) do
    local where = c.where and (c.where .. ": ") or ""
    if c.each and c.each.wrap then
      fail("%s%s: a pattern with wrap = true (periodic) links the first copies to the last: "
        .. "under mpirun coupled arrays are split into ranges of copies and a wrap-around "
        .. "link is not split; run it with one process", where, mname)
    end
    local v1, c1, v2, c2
    local n1, e1 = top_of(c[1])
    local n2, e2 = top_of(c[2])
    if n1 then v1, c1 = index_of(n1, e1, where, mname) end
    if n2 then v2, c2 = index_of(n2, e2, where, mname) end
    if c1 and c2 then
      if v1 ~= v2 then
        fail("%s%s: {%q, %q} links copies whose indices do not move together (one copy to "
          .. "many, or two loop variables): under mpirun coupled arrays are split into ranges "
          .. "of neighbouring copies, and a copy that many copies read is not split; run it "
          .. "with one process", where, mname, c[1], c[2])
      end
      d = math.max(d, math.abs(c1 - c2))
    end
  end
  return d + 1
end

-- The pattern pairs with one loop variable in both ends' top-level
-- indices: {x, cx, rx, y, cy, ry, first, last, step} (x[i+cx]rx linked to
-- y[i+cy]ry for i = first, first + step, .. last).
local function pattern_pairs(connect, lens, mname)
  local out = {}
  for _, c in ipairs(connect) do
    if c.each then
      local where = c.where and (c.where .. ": ") or ""
      local x, ex, rx = top_of(c[1])
      local y, ey, ry = top_of(c[2])
      if x and y and lens[x] and lens[y] then
        local vx, cx = index_of(x, ex, where, mname)
        local vy, cy = index_of(y, ey, where, mname)
        if vx and vx == vy then
          for _, l in ipairs(c.each.loops) do
            if l.name == vx then
              out[#out + 1] = { x = x, cx = cx, rx = rx, y = y, cy = cy, ry = ry,
                                first = l.first, last = l.last, step = l.step }
            end
          end
        end
      end
    end
  end
  return out
end

-- 1 when copy k of array name has a port that the patterns link to copies
-- that exist in the whole model but not in the ranges r ({name = {lo, hi}}).
local function cut_port(name, k, pairs_, r)
  local ports = {} -- port -> {global = linked at all, here = linked in r}
  for _, p in ipairs(pairs_) do
    for side = 1, 2 do
      local me, cme, rme, other, co = p.x, p.cx, p.rx, p.y, p.cy
      if side == 2 then me, cme, rme, other, co = p.y, p.cy, p.ry, p.x, p.cx end
      if me == name then
        local i = k - cme
        local st = ports[rme] or {}
        ports[rme] = st
        if i >= p.first and i <= p.last and (i - p.first) % p.step == 0 then
          st.global = true
          local j = i + co
          if j >= r[other][1] and j <= r[other][2] then st.here = true end
        end
      end
    end
  end
  for port, st in pairs(ports) do
    if st.global and not st.here then return port end
  end
  return nil
end

-- The rank's ranges: lens = {name = global length}; returns plan = {g, N,
-- a, b, arrays = {name = {off, count, global, own_first, own_count}}}.
-- Each array's range is a - g .. b + g (within the array), less the copies
-- at its ends whose ports would lose every link (a spring at the edge whose
-- next crab is not there): ports are connected or not as in the whole model.
function M.plan(mname, lens, connect, slice, sorted_keys)
  local N = 0
  for _, L in pairs(lens) do N = math.max(N, L) end
  local g = width(connect, mname)
  if N < slice.size then
    fail("model %s: %d copies for %d processes (mpirun -np): at least one copy per process",
      mname, N, slice.size)
  end
  local a = N * slice.rank // slice.size + 1
  local b = N * (slice.rank + 1) // slice.size
  local r = {}
  for name, L in pairs(lens) do
    if N - L > g - 1 then
      fail("model %s: array %s has %d copies and the longest %d: under mpirun the arrays of "
        .. "coupled models are split together, so their lengths may differ by at most %d (the "
        .. "patterns' largest index offset); run it with one process", mname, name, L, N, g - 1)
    end
    r[name] = { math.max(1, a - g), math.min(L, b + g) }
  end
  local pairs_ = pattern_pairs(connect, lens, mname)
  local changed = true
  while changed do
    changed = false
    for _, name in ipairs(sorted_keys(r)) do
      local rr = r[name]
      for side = 1, 2 do
        local k = rr[side]
        if rr[1] <= rr[2] then
          local port = cut_port(name, k, pairs_, r)
          if port then
            if k >= a and k <= b then
              fail("model %s: %s[%d]%s would lose every link where rank %d's copies and "
                .. "%d ghost copies end (the ghosts beyond it are dropped for the same reason): "
                .. "under mpirun only arrays whose ports keep a link at the cut (mechanical "
                .. "frames, which take several) are split; run it with one process",
                mname, name, k, port, slice.rank, g)
            end
            rr[side] = side == 1 and k + 1 or k - 1
            changed = true
          end
        end
      end
    end
  end
  local plan = { g = g, N = N, a = a, b = b, arrays = {} }
  for name, L in pairs(lens) do
    local lo, hi = r[name][1], r[name][2]
    if hi < lo then
      fail("model %s: array %s has no copies on rank %d; run it with fewer processes", mname,
        name, slice.rank)
    end
    plan.arrays[name] = { off = lo - 1, count = hi - lo + 1, global = L, own_first = a - 1,
                          own_count = math.max(0, math.min(b, L) - a + 1) }
  end
  return plan
end

local function localise(name, expr, off)
  if off == 0 then return name .. "[" .. expr .. "]" end
  return name .. "[" .. expr .. "-" .. off .. "]"
end

-- The root's connections for this rank: each pattern's loop bounded so that
-- every end lies in the instantiated copies, the top-level indices made
-- local (global - the array's off); plain connections kept when both ends
-- are instantiated.
function M.connections(connect, plan, mname)
  local out = {}
  for _, c in ipairs(connect) do
    local where = c.where and (c.where .. ": ") or ""
    local keep, ends = true, {}
    local bounds = {} -- var -> {lower, upper}
    for j = 1, 2 do
      local name, expr, rest = top_of(c[j])
      local arr = name and plan.arrays[name]
      if not arr then
        ends[j] = c[j] -- not an array: the usual error follows
      else
        local lo, hi = arr.off + 1, arr.off + arr.count
        local var, k = index_of(name, expr, where, mname)
        if var and c.each then
          local bd = bounds[var] or { -math.huge, math.huge }
          bd[1] = math.max(bd[1], lo - k)
          bd[2] = math.min(bd[2], hi - k)
          bounds[var] = bd
        elseif k and not var then
          if k < lo or k > hi then keep = false end
        end
        ends[j] = localise(name, expr, arr.off) .. rest
      end
    end
    if keep and c.each then
      local loops = {}
      for i, l in ipairs(c.each.loops) do
        local bd = bounds[l.name]
        local nl = { name = l.name, first = l.first, last = l.last, step = l.step }
        if bd then
          if l.step < 1 then
            fail("%s%s: loop %s with step %d: under mpirun coupled arrays take patterns that "
              .. "count upwards", where, mname, l.name, l.step)
          end
          if nl.first < bd[1] then
            nl.first = nl.first + ((bd[1] - nl.first + l.step - 1) // l.step) * l.step
          end
          if nl.last > bd[2] then nl.last = bd[2] end
          if nl.first > nl.last then keep = false end
        end
        loops[i] = nl
      end
      if keep then
        out[#out + 1] = { ends[1], ends[2], where = c.where, each = { loops = loops, wrap = false } }
      end
    elseif keep then
      local e = {}
      for k, v in pairs(c) do e[k] = v end
      e[1], e[2] = ends[1], ends[2]
      out[#out + 1] = e
    end
  end
  return out
end

return M
