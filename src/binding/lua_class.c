/* lua_class.c - C classes as userdata (lied.Class) and the component
 * libraries they come from. */
#include <string.h>
#include "core/library.h"
#include "binding/binding.h"

static void push_class(lua_State *L, const lied_class *c) {
  const lied_class **u = lua_newuserdatauv(L, sizeof *u, 0);
  *u = c;
  luaL_setmetatable(L, CLASS_MT);
}

const lied_class *lied_lua_checkclass(lua_State *L, int idx) {
  return *(const lied_class **)luaL_checkudata(L, idx, CLASS_MT);
}

static int class_tostring(lua_State *L) {
  const lied_class *c = lied_lua_checkclass(L, 1);
  lua_pushfstring(L, "%s.%s (component class)", c->domain, c->name);
  return 1;
}

/* Fields: name, domain, doc, params (list of tables). */
static int class_index(lua_State *L) {
  const lied_class *c = lied_lua_checkclass(L, 1);
  const char *k = luaL_checkstring(L, 2);
  if (strcmp(k, "name") == 0)
    lua_pushstring(L, c->name);
  else if (strcmp(k, "domain") == 0)
    lua_pushstring(L, c->domain);
  else if (strcmp(k, "doc") == 0)
    lua_pushstring(L, c->doc ? c->doc : "");
  else if (strcmp(k, "params") == 0) {
    lua_createtable(L, c->nparams, 0);
    for (int i = 0; i < c->nparams; i++) {
      const lied_param *p = &c->params[i];
      lua_createtable(L, 0, 8);
      lua_pushstring(L, p->name);
      lua_setfield(L, -2, "name");
      if (p->len > 1) {
        lua_createtable(L, p->len, 0);
        for (int e = 0; e < p->len; e++) {
          lua_pushnumber(L, p->defs ? p->defs[e] : p->def);
          lua_rawseti(L, -2, e + 1);
        }
      } else {
        lua_pushnumber(L, p->def);
      }
      lua_setfield(L, -2, "default");
      lua_pushstring(L, p->unit ? p->unit : "");
      lua_setfield(L, -2, "unit");
      lua_pushstring(L, p->doc ? p->doc : "");
      lua_setfield(L, -2, "doc");
      lua_pushnumber(L, p->min);
      lua_setfield(L, -2, "min");
      lua_pushnumber(L, p->max);
      lua_setfield(L, -2, "max");
      lua_pushboolean(L, (p->flags & LIED_PARAM_MIN_OPEN) != 0);
      lua_setfield(L, -2, "min_open");
      lua_pushboolean(L, (p->flags & LIED_PARAM_MAX_OPEN) != 0);
      lua_setfield(L, -2, "max_open");
      lua_pushinteger(L, p->len > 1 ? p->len : 1);
      lua_setfield(L, -2, "len");
      if (p->flags & (LIED_PARAM_TABLE | LIED_PARAM_MAP)) { /* lied/table.h: its rank */
        lua_pushinteger(L, (p->flags & LIED_PARAM_MAP) ? 2 : 1);
        lua_setfield(L, -2, "table");
      }
      lua_rawseti(L, -2, i + 1);
    }
  } else {
    /* methods installed by the Lua side (lied/init.lua) */
    luaL_getmetatable(L, CLASS_MT);
    lua_getfield(L, -1, "methods");
    if (lua_istable(L, -1)) {
      lua_getfield(L, -1, k);
      return 1;
    }
    lua_pushnil(L);
  }
  return 1;
}

/* lied.core.library(name) -> table name -> class, or nil, message */
static int core_library(lua_State *L) {
  const char *name = luaL_checkstring(L, 1);
  const lied_library *lib = lied_library_find(name);
  if (!lib) {
    lua_pushnil(L);
    lua_pushfstring(L, "no component library '%s'", name);
    return 2;
  }
  lua_newtable(L);
  for (int i = 0; lib->classes[i]; i++) {
    push_class(L, lib->classes[i]);
    lua_setfield(L, -2, lib->classes[i]->name);
  }
  return 1;
}

static int core_libraries(lua_State *L) {
  lua_newtable(L);
  for (int i = 0; i < lied_library_count(); i++) {
    const lied_library *lib = lied_library_at(i);
    lua_pushstring(L, lib->doc ? lib->doc : "");
    lua_setfield(L, -2, lib->name);
  }
  return 1;
}

/* The class metatable, so the Lua side can add __call and methods. */
static int core_class_metatable(lua_State *L) {
  luaL_getmetatable(L, CLASS_MT);
  return 1;
}

static int core_isclass(lua_State *L) {
  lua_pushboolean(L, luaL_testudata(L, 1, CLASS_MT) != NULL);
  return 1;
}

static const luaL_Reg class_funcs[] = {{"library", core_library},
                                       {"libraries", core_libraries},
                                       {"class_metatable", core_class_metatable},
                                       {"isclass", core_isclass},
                                       {NULL, NULL}};

/* The Lua entry point of every component library (lied_library_luaopen,
 * what LIED_LIBRARY's luaopen_NAME calls): check the versions, register,
 * then return lied.library(name), loading lied first. */
static int library_open(lua_State *L, const lied_library *lib, int abi, const char *version) {
  char msg[512];
  /* the name is the descriptor's first field in every ABI */
  const char *name = lib && lib->name ? lib->name : "?";
  if (!lib) /* LIED_LIBRARY_OPEN(NAME, NULL): nothing to check or register */
    return lied_lua_fail(L, LIED_E_MODEL, "a component library's luaopen passed no descriptor (NULL)");
  if (lied_library_check(NULL, name, abi, version, msg, sizeof msg) != 0 ||
      lied_library_check(lib, name, abi, version, msg, sizeof msg) != 0)
    return lied_lua_fail(L, LIED_E_MODEL, "%s", msg);
  lied_library_register(lib, abi, version);
  lua_getglobal(L, "require");
  lua_pushliteral(L, "lied");
  lua_call(L, 1, 1);
  lua_getfield(L, -1, "library");
  lua_pushstring(L, name);
  lua_call(L, 1, 1);
  return 1;
}

__attribute__((constructor)) static void install_library_opener(void) {
  lied_library_set_opener(library_open);
}

void lied_lua_open_classes(lua_State *L) {
  luaL_newmetatable(L, CLASS_MT);
  lua_pushcfunction(L, class_index);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, class_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_newtable(L);
  lua_setfield(L, -2, "methods");
  lua_pop(L, 1);
  luaL_setfuncs(L, class_funcs, 0);
}
