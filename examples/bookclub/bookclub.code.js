// bookclub.code.js — the book club's computed fields and validators, named by bookclub.loom.yaml.
// Computed fields are pure functions of the stored object and the request; validators answer a
// message when the values they are given may not be written, or null when they may.

export default {
  computed: {
    /** A cover image this Loom serves, named after the book's ISBN. */
    coverUrl: (book, ctx) => `${ctx.publicUrl}/covers/${book.data.isbn}.jpg`,
  },
  validators: {
    /** A harsh rating has to say why. */
    lowRatingNeedsWords: (review) =>
      review.rating <= 2 && !(review.body ?? '').trim() ? 'A rating of 1 or 2 needs a few words.' : null,
  },
  behaviors: {},
};
