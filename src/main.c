#include "autoconfig.h"
int main(void) { return 0; }
