/* GSFW_API marks the functions of the public API. The library is compiled with
 * -fvisibility=hidden, so libgsfw.so exports these and nothing else; a program that
 * links libgsfw.a sees every symbol, as static linking always does. */
#ifndef GSFW_EXPORT_H
#define GSFW_EXPORT_H

#if defined(_WIN32)
#  if defined(GSFW_BUILDING_SHARED)
#    define GSFW_API __declspec(dllexport)
#  else
#    define GSFW_API
#  endif
#elif defined(__GNUC__) && __GNUC__ >= 4
#  define GSFW_API __attribute__((visibility("default")))
#else
#  define GSFW_API
#endif

#endif
