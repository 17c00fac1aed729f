// Run once by the mongo image on an empty data directory (/docker-entrypoint-initdb.d), as the
// root user: the service's own user, with read and write on its database only.
db.getSiblingDB('admin').createUser({
  user: 'svc',
  pwd: process.env.SVC_MONGO_PASSWORD,
  roles: [{ role: 'readWrite', db: process.env.MONGODB_DATABASE || 'svc' }],
});
