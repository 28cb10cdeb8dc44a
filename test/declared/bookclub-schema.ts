/** The book club of the design study: its declaration and code module, as test data. */
export const BOOKCLUB_YAML = `
# bookclub.loom.yaml
loom: 1
name: bookclub
version: 3
code: ./bookclub.code.js            # computed fields and validators
principal: member                   # user tokens stand for members; /me is the viewer
scopes:
  reading_activity: See a member's reviews and whom they follow.
  publish: Write reviews and comments, like reviews and follow members for the member.

types:
  member:
    label: Member
    description: A person in the club.
    id: app_scoped
    key: handle
    read: token
    default_fields: [name]
    fields:
      handle: {type: string, pattern: '^[a-z0-9_]{3,30}$', write: create_only, description: The member's unique handle.}
      name: {type: string, required: true, max_length: 80, write: owner, description: The name the member shows.}
      bio: {type: string, max_length: 500, write: owner, description: A few words the member wrote about themselves.}
      favourite_genre: {type: enum, values: [fiction, history, science, poetry], write: owner, description: The genre the member reads most.}
      settings: {type: json, read: owner, write: owner, description: Reading preferences stored by the member's app.}
      joined_time: {type: datetime, source: created_time, description: When the member joined.}
    edges:
      reviews: {to: review, backed_by: review.from, scope: reading_activity, summary: {count: true}, description: Reviews the member wrote.}
      following: {to: member, inverse: followers, scope: reading_activity, summary: {count: true}, description: Members this member follows.}
      followers:
        to: member
        inverse: following
        summary: {count: true, viewer: is_following}
        write: {link: viewer, unlink: viewer, allow: principal, not_self: true, scope: publish}
        description: Members who follow this member; POST makes the viewer follow, DELETE unfollows.
    write: {update: owner}

  book:
    label: Book
    description: A book on the club's shelf.
    id: plain
    key: isbn
    read: token
    default_fields: [title, authors]
    fields:
      isbn: {type: string, required: true, pattern: '^[0-9]{13}$', write: never, description: The 13-digit ISBN.}
      title: {type: string, required: true, max_length: 300, write: never, description: The title on the cover.}
      authors: {type: list<string>, max_items: 20, write: never, description: Who wrote the book.}
      published: {type: date, write: never, description: First publication date.}
      genres: {type: list<enum>, values: [fiction, history, science, poetry], write: never, description: The book's genres.}
      details: {type: json, write: never, description: "Publisher data as imported (pages, edition, publisher)."}
      rating: {type: float, source: {average: {edge: reviews, field: rating}}, description: The mean rating of its reviews.}
      cover_url: {type: url, computed: coverUrl, description: A cover image served by this Loom.}
    edges:
      reviews:
        to: review
        backed_by: review.book
        order: [reverse_chronological, chronological]
        summary: {count: true, can_write: can_review}
        write: {create: review, allow: principal, scope: publish, set: {book: parent, from: viewer}}
        description: Reviews of the book.

  review:
    label: Review
    description: What a member thought of a book.
    id: compound                      # <author's id>_<review number>, like a post
    owner: from
    read:
      by_field: audience
      cases:
        everyone: token
        followers: {any: [owner, {related: {edge: member.followers, of: owner}}]}
        self: owner
    default_fields: [rating, body, created_time]
    validate: [lowRatingNeedsWords]
    fields:
      from: {type: ref<member>, source: owner, description: The member who wrote the review.}
      book: {type: ref<book>, required: true, write: create_only, description: The book reviewed.}
      rating: {type: int, required: true, min: 1, max: 5, write: owner, description: Stars from 1 to 5.}
      body: {type: string, max_length: 5000, write: owner, description: The text of the review.}
      audience: {type: enum, values: [everyone, followers, self], default: everyone, write: owner, description: Who may read it.}
      created_time: {type: datetime, source: created_time, description: When the review was written.}
      updated_time: {type: datetime, source: updated_time, description: When the review last changed.}
      like_count: {type: int, source: {count: likes}, description: How many members liked the review.}
    edges:
      likes:
        to: member
        summary: {count: true, viewer: has_liked, can_write: can_like}
        write: {link: viewer, unlink: viewer, allow: reader, scope: publish}
        description: Members who liked the review.
      comments:
        to: comment
        backed_by: comment.review
        order: [chronological, reverse_chronological]
        summary: {count: true, order: true, can_write: can_comment}
        write: {create: comment, allow: reader, scope: publish, set: {review: parent, from: viewer}}
        description: Comments on the review, oldest first.
    write: {update: owner, delete: {allow: owner, cascade: [comments]}}

  comment:
    label: Comment
    description: A reply under a review.
    id: plain
    owner: from
    read: {follows: review}
    default_fields: [from, message, created_time]
    fields:
      from: {type: ref<member>, source: owner, description: Who wrote the comment.}
      review: {type: ref<review>, required: true, write: create_only, description: The review the comment answers.}
      message: {type: string, required: true, max_length: 2000, write: owner, description: The text of the comment.}
      created_time: {type: datetime, source: created_time, description: When the comment was written.}
    write: {update: owner, delete: {allow: {any: [owner, {owner_of: review}]}}}
`;

export const BOOKCLUB_CODE = `
// bookclub.code.js — the book club's computed fields and validators, named by bookclub.loom.yaml.
// Computed fields are pure functions of the stored object and the request; validators answer a
// message when the values they are given may not be written, or null when they may.

export default {
  computed: {
    /** A cover image this Loom serves, named after the book's ISBN. */
    coverUrl: (book, ctx) => \`\${ctx.publicUrl}/covers/\${book.data.isbn}.jpg\`,
  },
  validators: {
    /** A harsh rating has to say why. */
    lowRatingNeedsWords: (review) =>
      review.rating <= 2 && !(review.body ?? '').trim() ? 'A rating of 1 or 2 needs a few words.' : null,
  },
  behaviors: {},
};
`;
