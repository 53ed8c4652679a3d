/**
 * Example programs of the job module, compiled by the build and run by its tests through bin/pinmx-run; may call
 * what {@code io.pinmx.job} may.
 */
package io.pinmx.job.example;
