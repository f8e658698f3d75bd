// libedit's readline interface: line editing and history for flowrun's prompt.
#include <stdio.h>
#include <editline/readline.h>
