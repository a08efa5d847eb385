export const Notify = async () => ({
  "session.idle": async () => {},
})
