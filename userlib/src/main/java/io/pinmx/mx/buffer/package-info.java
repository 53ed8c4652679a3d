/**
 * Pooled native buffers: staging of heap segments for sends and receives, and storage of
 * unexpected eager messages. Owns its arena; calls nothing else in pinmx.
 */
package io.pinmx.mx.buffer;
