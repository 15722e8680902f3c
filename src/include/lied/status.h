/* status.h - the return codes of every lied function below the Lua binding
 * (engine, libraries, embedders). One list, one name function, in the style
 * of SUNDIALS' return flags: 0 is success, a positive code is recoverable
 * (the caller may take another path or retry), a negative code ends the
 * operation. A function that fails also writes a message into its error
 * context (lied_err, engine-internal) and leaves the same code there. */
#ifndef LIED_STATUS_H
#define LIED_STATUS_H

/* X-macro: the enum and the name table come from this one list. */
#define LIED_STATUS_LIST(X)                                                              \
  X(LIED_OK, 0, "success")                                                               \
  X(LIED_RETRY, 1, "step attempt failed: retry with a smaller step")                     \
  X(LIED_UNSUPPORTED, 2, "the optional fast path does not apply: take the general one")  \
  X(LIED_ERROR, -1, "model or simulation error")                                         \
  X(LIED_E_USAGE, -2, "bad option or argument: nothing was done")                        \
  X(LIED_E_MODEL, -3, "structural error in the model")                                   \
  X(LIED_E_PARAM, -4, "bad parameter value")                                             \
  X(LIED_E_SINGULAR, -5, "singular linear section")                                      \
  X(LIED_E_NONFINITE, -6, "a state, derivative or recorded variable is not finite")      \
  X(LIED_E_SOLVER, -7, "the solver cannot continue (step size, Newton)")                 \
  X(LIED_E_IO, -8, "input/output error")                                                 \
  X(LIED_E_NOMEM, -9, "out of memory")                                                   \
  X(LIED_E_LIMIT, -10, "a size limit of lied")                                          \
  X(LIED_E_RANGE, -11, "a value outside a component's range of validity")

typedef enum lied_status {
#define LIED_STATUS_ENUM(name, value, doc) name = value,
  LIED_STATUS_LIST(LIED_STATUS_ENUM)
#undef LIED_STATUS_ENUM
} lied_status;

/* "LIED_E_USAGE" for LIED_E_USAGE; "LIED_UNKNOWN" for a value not in the
 * list. */
const char *lied_status_name(int code);
/* The one-line description of a code ("out of memory"). */
const char *lied_status_doc(int code);

#endif
