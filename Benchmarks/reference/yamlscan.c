/* The floor for loading a YAML file: read it into memory once, then pull every libyaml event and drop it,
 * building nothing. Prints the best of RUNS wall-clock times in seconds and the number of events.
 * Build: cc -O2 -o yamlscan yamlscan.c -lyaml     Run: ./yamlscan FILE [RUNS] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <yaml.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  if (argc < 2) { fprintf(stderr, "usage: yamlscan FILE [RUNS]\n"); return 2; }
  int runs = argc > 2 ? atoi(argv[2]) : 5;
  FILE *file = fopen(argv[1], "rb");
  if (!file) { perror(argv[1]); return 2; }
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  fseek(file, 0, SEEK_SET);
  unsigned char *bytes = malloc((size_t)size);
  if (!bytes || fread(bytes, 1, (size_t)size, file) != (size_t)size) { perror(argv[1]); return 2; }
  fclose(file);

  double best = 1e9;
  long events = 0;
  for (int run = 0; run < runs; run++) {
    double start = now();
    yaml_parser_t parser;
    yaml_event_t event;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, bytes, (size_t)size);
    events = 0;
    for (;;) {
      if (!yaml_parser_parse(&parser, &event)) {
        fprintf(stderr, "%s:%zu:%zu: %s\n", argv[1], parser.problem_mark.line + 1, parser.problem_mark.column + 1,
                parser.problem ? parser.problem : "parse error");
        return 1;
      }
      int done = event.type == YAML_STREAM_END_EVENT;
      yaml_event_delete(&event);
      events++;
      if (done) break;
    }
    yaml_parser_delete(&parser);
    double elapsed = now() - start;
    if (elapsed < best) best = elapsed;
  }
  printf("%.6f %ld\n", best, events);
  free(bytes);
  return 0;
}
