/* lua_textonly.c - Lua source text only: load, loadfile, dofile and the
 * Lua searcher of require refuse binary (precompiled) chunks. Lua does not
 * verify bytecode, so a precompiled or corrupted chunk can crash the
 * process; every chunk lied runs (model files, stdlib, scripts, and what
 * user code loads) is compiled from text. */
#include <lauxlib.h>
#include "binding/lua_lied.h"

static const char text_only[] =
    "local load, loadfile, select, error, type = load, loadfile, select, error, type\n"
    "local function why(r, e, name)\n"
    "  if r == nil and type(e) == 'string' and e:find('attempt to load a binary chunk', 1, true) then\n"
    "    e = (name and (tostring(name):gsub('^[=@]', '') .. ': ') or '') ..\n"
    "      'a binary (precompiled) Lua chunk; lied loads Lua source text only'\n"
    "  end\n"
    "  return r, e\n"
    "end\n"
    "_G.load = function(chunk, name, mode, ...)\n"
    "  if type(chunk) ~= 'string' and type(chunk) ~= 'function' then\n"
    "    error(\"bad argument #1 to 'load' (string expected, got \" .. type(chunk) .. ')', 2)\n"
    "  end\n"
    "  if name ~= nil and type(name) ~= 'string' then\n"
    "    error(\"bad argument #2 to 'load' (string expected, got \" .. type(name) .. ')', 2)\n"
    "  end\n"
    "  local r, e\n"
    "  if select('#', ...) > 0 then r, e = load(chunk, name, 't', (...)) else r, e = load(chunk, name, 't') end\n"
    "  return why(r, e, name or (type(chunk) == 'string' and '=(load)') or '=(load)')\n"
    "end\n"
    "_G.loadfile = function(file, mode, ...)\n"
    "  local r, e\n"
    "  if select('#', ...) > 0 then r, e = loadfile(file, 't', (...)) else r, e = loadfile(file, 't') end\n"
    "  return why(r, e, file or 'stdin')\n"
    "end\n"
    "_G.dofile = function(file)\n"
    "  local f, e = _G.loadfile(file)\n"
    "  if not f then error(e, 2) end\n"
    "  return f()\n"
    "end\n"
    "local searchpath = package.searchpath\n"
    "package.searchers[2] = function(name)\n"
    "  local path, err = searchpath(name, package.path)\n"
    "  if not path then return '\\n\\t' .. err end\n"
    "  local f, e = _G.loadfile(path)\n"
    "  if not f then\n"
    "    error(string.format(\"error loading module '%s' from file '%s':\\n\\t%s\", name, path, e), 0)\n"
    "  end\n"
    "  return f, path\n"
    "end\n";

int lied_lua_text_only(lua_State *L) {
  if (luaL_loadbufferx(L, text_only, sizeof text_only - 1, "=lied.textonly", "t") != LUA_OK)
    return -1;
  return lua_pcall(L, 0, 0, 0) == LUA_OK ? 0 : -1;
}
