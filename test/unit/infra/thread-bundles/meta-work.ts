// Uses import.meta, which a bundle would point at itself: refused.
export const here = import.meta.url;
