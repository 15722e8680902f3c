-- lied.testlib: small C components used by lied's own tests.
return require("lied").library("testlib")
