-- lied.table: tables y(x) and maps z(x1, x2) for table parameters
-- (docs/lua-api.md, "Tables and maps"; the C side is lied/table.h).
--
--   lied.table { x = {0, 1, 3}, y = {0, 2, 2} }
--   lied.table { {0, 0}, {1, 2}, {3, 2} }                       -- rows {x, y}
--   lied.table { file = "cycle.csv", x = "time", y = "speed" }  -- columns by name
--   lied.table { x1 = {...}, x2 = {...}, z = {{...}, ...} }     -- z[i][j] at x1[i], x2[j]
--   lied.table { file = "map.csv", x1 = "n", x2 = "pr", z = "eta" }  -- a grid, one row per point
--
-- Options: interpolation = "linear" (default), "cubic" (monotone: Steffen's
-- for tables, bicubic Hermite for maps) or "constant" (tables: a
-- staircase); extrapolation = "hold" (default), "linear", "periodic" or
-- "error"; name (for messages; default the file and column, or the site of
-- the call). The numbers are checked when a model using the table is built.
local core = require "lied.core"

local M = {}

local function fail(site, fmt, ...)
  error((site and (site .. ": ") or "") .. string.format(fmt, ...), 0)
end

-- The caller's site ("file.lua:12") and directory, level above lied.table.
local function caller(level)
  local info = debug.getinfo(level + 1, "Sl")
  if not info then return nil, nil end
  local site = string.format("%s:%d", info.short_src or "?", info.currentline or 0)
  local src = info.source
  local dir = src and src:sub(1, 1) == "@" and src:sub(2):match("^(.*)/[^/]*$") or nil
  return site, dir
end

-- A list of numbers (copied), or an error naming what.
local function list(v, what, site)
  if type(v) ~= "table" or getmetatable(v) ~= nil then
    fail(site, "%s must be a list of numbers, got %s", what, type(v))
  end
  local n, out = #v, {}
  for k in pairs(v) do
    if math.type(k) ~= "integer" or k < 1 or k > n then
      fail(site, "%s must be a list of numbers, got a table with the key %s", what, tostring(k))
    end
  end
  for i = 1, n do
    if type(v[i]) ~= "number" then
      fail(site, "%s[%d] must be a number, got %s", what, i, type(v[i]))
    end
    out[i] = v[i]
  end
  return out
end

-- ---- CSV files ------------------------------------------------------------------

-- The cells of one line of a CSV file (commas; double quotes around a cell
-- allowed; spaces around cells dropped).
local function cells(line)
  local out, pos = {}, 1
  while true do
    local c
    local q = line:match("^%s*\"()", pos)
    if q then
      local e = line:find("\"", q, true)
      if not e then return nil end
      c, pos = line:sub(q, e - 1), e + 1
      local after = line:match("^%s*()", pos)
      pos = after
    else
      local e = line:find(",", pos, true) or (#line + 1)
      c, pos = line:sub(pos, e - 1):match("^%s*(.-)%s*$"), e
    end
    out[#out + 1] = c
    if line:sub(pos, pos) == "," then pos = pos + 1 elseif pos > #line then break else return nil end
  end
  return out
end

-- The named columns of a CSV file (header line first; empty lines and
-- lines starting with '#' skipped) as lists of numbers.
local function read_csv(path, names, site)
  local f, err = io.open(path, "rb")
  if not f then fail(site, "lied.table: cannot read %s", err or path) end
  local text = f:read("a")
  f:close()
  local header, cols, data, lineno = nil, {}, {}, 0
  text = text:gsub("^\239\187\191", "") -- a UTF-8 byte order mark (spreadsheets write one)
  for line in (text:gsub("\r", "") .. "\n"):gmatch("([^\n]*)\n") do
    lineno = lineno + 1
    if line:match("^%s*$") or line:match("^%s*#") then goto continue end
    local c = cells(line)
    if not c then fail(site, "%s:%d: a quoted cell is not closed", path, lineno) end
    if not header then
      header = c
      local index, twice = {}, {}
      for i, h in ipairs(header) do
        if index[h] then twice[h] = twice[h] or index[h] .. " and " .. i end
        index[h] = index[h] or i
      end
      for _, nm in ipairs(names) do
        if twice[nm] then
          fail(site, "%s:%d: two columns are named '%s' (columns %s): which one is meant?", path,
            lineno, nm, twice[nm])
        end
        if not index[nm] then
          local _, near = core.suggest(nm, header)
          fail(site, "%s: no column '%s'%s (columns: %s)", path, nm, near, table.concat(header, ", "))
        end
        cols[nm], data[nm] = index[nm], {}
      end
    else
      -- a row of another width is no row of this file: a decimal comma ("0,1,5" for
      -- 0 and 1.5) read as two cells took 1 for 1.5, the 5 dropped
      if #c ~= #header then
        fail(site, "%s:%d: %d cells for the %d columns of the header (a decimal comma? lied reads " ..
          "',' between cells and '.' in numbers)", path, lineno, #c, #header)
      end
      for _, nm in ipairs(names) do
        local cell = c[cols[nm]]
        local v = cell and tonumber(cell)
        if not v then
          fail(site, "%s:%d: column %s: %s is not a number", path, lineno, nm,
            cell and string.format("%q", cell) or "(missing cell)")
        end
        if v ~= v or v == math.huge or v == -math.huge then
          fail(site, "%s:%d: column %s: %q is not a finite number", path, lineno, nm, cell)
        end
        local d = data[nm]
        d[#d + 1] = v
      end
    end
    ::continue::
  end
  if not header then fail(site, "%s: no header line (the columns' names)", path) end
  return data
end

-- A path relative to the directory of the file that called lied.table.
local function resolve(file, dir)
  if file:sub(1, 1) == "/" or not dir then return file end
  return dir .. "/" .. file
end

-- ---- the forms -------------------------------------------------------------

local options = { interpolation = true, extrapolation = true, name = true, file = true }

-- A grid from points (one per row): sorted distinct x1 and x2, z row-major.
local function grid(a, b, z, what, site)
  local function distinct(v)
    local seen, out = {}, {}
    for _, x in ipairs(v) do
      if not seen[x] then seen[x], out[#out + 1] = true, x end
    end
    table.sort(out)
    local at = {}
    for i, x in ipairs(out) do at[x] = i end
    return out, at
  end
  local x1, i1 = distinct(a)
  local x2, i2 = distinct(b)
  local v = {}
  for k = 1, #z do
    local at = (i1[a[k]] - 1) * #x2 + i2[b[k]]
    if v[at] then fail(site, "%s: two rows for the point (%.17g, %.17g)", what, a[k], b[k]) end
    v[at] = z[k]
  end
  for i = 1, #x1 do
    for j = 1, #x2 do
      if not v[(i - 1) * #x2 + j] then
        fail(site, "%s: no row for the point (%.17g, %.17g): a map needs every point of its grid",
          what, x1[i], x2[j])
      end
    end
  end
  return x1, x2, v
end

-- Every field of spec is known (the map's or the curve's, the options, or
-- the rows of a list of pairs).
local function check_fields(spec, map, site)
  local known = map and { x1 = true, x2 = true, z = true } or { x = true, y = true }
  for k in pairs(spec) do
    if not options[k] and not known[k] and not (math.type(k) == "integer" and not spec.file and not map) then
      local names = {}
      for n in pairs(options) do names[#names + 1] = n end
      for n in pairs(known) do names[#names + 1] = n end
      local _, near = core.suggest(tostring(k), names)
      fail(site, "lied.table: unknown field '%s'%s", tostring(k), near)
    end
  end
end

-- { file = "f.csv", x = "col", y = "col" } or a map's { x1, x2, z } columns
-- into d.
local function from_file(d, spec, map, site, dir)
  if type(spec.file) ~= "string" then fail(site, "lied.table: file must be a file name") end
  local path = resolve(spec.file, dir)
  local cols = map and { "x1", "x2", "z" } or { "x", "y" }
  local names = {}
  for i, c in ipairs(cols) do
    if type(spec[c]) ~= "string" then
      fail(site, "lied.table { file = ... }: %s must name a column of the file, got %s", c, type(spec[c]))
    end
    names[i] = spec[c]
  end
  local data = read_csv(path, names, site)
  if map then
    d.name = d.name or string.format("%s: %s", spec.file, spec.z)
    d.rank = 2
    d.x1, d.x2, d.v = grid(data[spec.x1], data[spec.x2], data[spec.z], spec.file, site)
  else
    d.name = d.name or string.format("%s: %s", spec.file, spec.y)
    d.rank, d.x1, d.v = 1, data[spec.x], data[spec.y]
  end
end

-- A map { x1 = {...}, x2 = {...}, z = {{row}, ...} } into d.
local function from_map(d, spec, site)
  d.rank = 2
  d.x1 = list(spec.x1, "x1", site)
  d.x2 = list(spec.x2, "x2", site)
  if type(spec.z) ~= "table" or #spec.z ~= #d.x1 then
    fail(site, "lied.table: z must be a list of %d rows (one per x1), got %s", #d.x1,
      type(spec.z) == "table" and (#spec.z .. " rows") or type(spec.z))
  end
  d.v = {}
  for i, row in ipairs(spec.z) do
    local r = list(row, string.format("z[%d]", i), site)
    if #r ~= #d.x2 then
      fail(site, "lied.table: z[%d] has %d values for %d breakpoints x2", i, #r, #d.x2)
    end
    table.move(r, 1, #r, #d.v + 1, d.v)
  end
end

-- Rows { {x, y}, ... } into d.
local function from_rows(d, spec, site)
  d.rank, d.x1, d.v = 1, {}, {}
  for i, r in ipairs(spec) do
    if type(r) ~= "table" or #r ~= 2 or type(r[1]) ~= "number" or type(r[2]) ~= "number" then
      local got = type(r)
      if type(r) == "table" then
        local ty = {}
        for k = 1, #r do ty[k] = type(r[k]) end
        got = #r == 2 and ("{" .. table.concat(ty, ", ") .. "}") or (#r .. (#r == 1 and " value" or " values"))
      end
      fail(site, "lied.table: row %d must be a pair of numbers {x, y}, got %s", i, got)
    end
    d.x1[i], d.v[i] = r[1], r[2]
  end
end

function M.new(spec, level)
  local site, dir = caller((level or 1) + 1)
  if type(spec) ~= "table" or getmetatable(spec) ~= nil then
    fail(site, "lied.table expects a table {x = {...}, y = {...}} (or rows, a file, a map), got %s",
      type(spec))
  end
  local d = { interpolation = spec.interpolation or "linear",
              extrapolation = spec.extrapolation or "hold", name = spec.name }
  if d.name ~= nil and type(d.name) ~= "string" then fail(site, "lied.table: name must be a string") end
  local map = spec.x1 ~= nil or spec.x2 ~= nil or spec.z ~= nil
  check_fields(spec, map, site)
  if spec.file ~= nil then
    from_file(d, spec, map, site, dir)
  elseif map then
    from_map(d, spec, site)
  elseif spec.x ~= nil or spec.y ~= nil then
    d.rank = 1
    d.x1 = list(spec.x, "x", site)
    d.v = list(spec.y, "y", site)
    if #d.x1 ~= #d.v then fail(site, "lied.table: %d breakpoints x and %d values y", #d.x1, #d.v) end
  else
    from_rows(d, spec, site)
  end
  if #d.x1 == 0 then fail(site, "lied.table: no breakpoints") end
  d.name = d.name or site or "table"
  local ok, t = pcall(core.table, d)
  if not ok then
    -- named by the site already when no name was given: once is enough
    local msg = core.errtext(t)
    if site and msg:sub(1, #site + 2) == site .. ": " then error(msg, 0) end
    fail(site, "%s", msg)
  end
  return t
end

return M
