/** The example account and session of the `/api/auth/*` routes' documentation. */
export const exampleUser = {
  id: "usr_7Qp2Xw9LmZk4",
  email: "you@example.com",
  name: "You",
  emailVerified: false,
  image: null,
  createdAt: "2026-01-05T10:00:00.000Z",
  updatedAt: "2026-01-05T10:00:00.000Z",
};
export const exampleSession = {
  id: "ses_3hV8rTq1Nc5y",
  userId: exampleUser.id,
  expiresAt: "2026-01-12T10:00:00.000Z",
  createdAt: exampleUser.createdAt,
  updatedAt: exampleUser.createdAt,
};
