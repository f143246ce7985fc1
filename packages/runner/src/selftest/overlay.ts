/**
 * `obj` seen through a Proxy with `over`'s own properties in place of its own; every other
 * property is read from `obj`, functions bound to `obj` (so class instances with private state
 * keep working). `obj` itself is not changed.
 */
export function overlay<T extends object>(obj: T, over: Partial<T>): T {
  return new Proxy(obj, {
    get(target, prop) {
      if (Object.prototype.hasOwnProperty.call(over, prop)) return (over as Record<PropertyKey, unknown>)[prop];
      const v: unknown = Reflect.get(target, prop, target);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
