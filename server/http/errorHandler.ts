import type { ErrorRequestHandler, RequestHandler } from 'express';
import mongoose from 'mongoose';
import { AppError, asCodedError, MissingScopeError, NotFoundError } from '../errors';
import type { Logger } from '../logger';
import type { ApiErrorBody } from '../shared/auth';
import { ERROR_CODES } from '../shared/constants';

/**
 * The public widget API (/widget/...) answers in the same `{ Message, Error }` shape, with the codes the widget
 * shows a text for (WidgetErrorCode): an unreadable or oversized body, and input a schema refused, get theirs.
 */
function widgetCodes(error: unknown, body: ApiErrorBody): ApiErrorBody {
  const type = typeof error === 'object' && error !== null ? (error as { type?: unknown }).type : undefined;
  if (type === 'entity.too.large') return { Message: 'The request is too large.', Error: 'too_large' };
  if (body.Error === ERROR_CODES.badRequest) return { ...body, Error: 'bad_frame' };
  return body;
}

/**
 * The one place errors become responses: `{ Message, Error }`, and never a leak of internals. Logged on the
 * request's own logger (its request id and the ids it knows) when pino-http gave it one.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    const log: Logger = (req as { log?: Logger }).log ?? logger;
    if (res.headersSent) {
      next(error);
      return;
    }
    let status: number;
    let body: ApiErrorBody;
    if (error instanceof mongoose.Error.ValidationError || error instanceof mongoose.Error.CastError) {
      // A value a route's schema let through but the model refuses: still the input's fault, never a 500.
      status = 400;
      const path = error instanceof mongoose.Error.CastError ? error.path : Object.keys(error.errors)[0];
      body = { Message: `Invalid value${path ? ` for ${path}` : ''}`, Error: ERROR_CODES.badRequest };
    } else {
      // Parley's own errors, and what Express or its parsers raise for a request they cannot read, are coded in one place.
      const coded = asCodedError(error);
      status = coded.status;
      body = { Message: coded.message, Error: coded.code, ...(coded instanceof MissingScopeError ? coded.body : {}) };
      if (coded.isReportable) log.error({ err: error }, error instanceof AppError ? error.message : `${req.method} ${req.path} failed`);
    }
    res.status(status).json(req.originalUrl.startsWith('/widget/') ? widgetCodes(error, body) : body);
  };
}

/** 404 for any path no route answered. */
export const notFound: RequestHandler = (req, _res, next) => {
  next(new NotFoundError(`No such endpoint: ${req.method} ${req.baseUrl}${req.path}`));
};
