"""The HTTP service: app factory, routes, middleware, errors, server-sent events, the web pages and their charts."""
